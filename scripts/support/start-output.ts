// What `npm start` (and `npm run dev`) print for a person: one line per phase as it finishes, then
// a short banner saying where everything is. Pure, so that its wording is tested (start-output.test.ts).
import { DEMO_PEOPLE } from '../../prisma/demo-people';

export type Phase = 'Database' | 'Migrations' | 'Demo data' | 'Build' | 'Server' | 'Job runner';

/** `Database    embedded PostgreSQL (.data/pg)`: phases aligned, one line each. */
export function progressLine(phase: Phase, text: string): string {
  return `${`${phase}:`.padEnd(12)}${text}`;
}

/** `3 applied (26 in all)`, or `26, none pending`. */
export function migrationsText(applied: number, total: number): string {
  return applied > 0 ? `${applied} applied (${total} in all)` : `${total}, none pending`;
}

/** What drives webhook delivery and the minute jobs, as JOB_RUNNER says. */
export function jobRunnerText(setting: string | undefined): string {
  if (setting === 'off') return 'off (JOB_RUNNER=off: no webhook deliveries or minute jobs)';
  if (setting === 'inngest') return 'Inngest (JOB_RUNNER=inngest; docs/webhooks.md, "Running with Inngest")';
  return 'in-process, in each server process (webhook deliveries and the minute jobs)';
}

export type Welcome = {
  url: string;
  embedded: boolean;
  demo: { businessId: string; keys: { test: string } } | null;
  /** The demo file, as shown (relative to the clone). */
  demoFile: string;
};

/** The banner: under 15 lines; a Test key only on the local embedded database (stdout may be collected elsewhere), never a Live one. */
export function welcomeLines({ url, embedded, demo, demoFile }: Welcome): string[] {
  const lines = ['', `Quote Pricing Service is running at ${url}`];
  if (!demo) return [...lines, `  Portal:     ${url}/portal`, '  Next:       docs/integrating.md', ''];
  const { workspaceAdmin, owner, editor, viewer } = DEMO_PEOPLE;
  lines.push(
    `  Portal:     ${url}/portal`,
    `  Quote page: ${url}/q/${demo.businessId} (the demo business, as its customers see it)`,
    `  People:     ${embedded ? 'development sign-in, no password: ' : ''}${workspaceAdmin.email} (${workspaceAdmin.name}, every workspace permission);`,
    `              ${owner.email}, ${editor.email}, ${viewer.email} (the business's owner, editor, viewer)`,
    `  Keys:       ${demoFile} (Test and Live API keys, account keys, the people's session tokens)`,
  );
  if (embedded) lines.push(`  Test key:   ${demo.keys.test}`);
  lines.push('  Next:       docs/integrating.md (from zero to a verified webhook), docs/README.md (every doc)', '');
  return lines;
}
