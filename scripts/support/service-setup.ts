// What `npm start` and `npm run dev` both do before serving: the database (embedded unless
// DATABASE_URL is set), migrated, the demo workspace and keys in .data/demo.json (the previous
// start's while they still work), and the settings the embedded mode provides itself.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { demoExample } from '../../lib/books/demo-book';
import { createDb } from '../../lib/db/client';
import { DEMO_PEOPLE, seedDemoPeople } from '../../prisma/demo-people';
import { demoKeys, type DemoKeys } from '../../prisma/demo-keys';
import { seedDemoPipeline } from '../../prisma/demo-pipeline';
import { seedDemo } from '../../prisma/seed';
import { configuredSealingKey } from '../../lib/sealing/sealing-key';
import { forgetSettings, settings } from '../../lib/settings/settings';
import { embeddedSealingKey, openServiceDatabase, type ServiceDatabase } from './database';
import { progressLine, welcomeLines } from './start-output';

export type Demo = Record<string, unknown> & { businessId: string; keys: { test: string; live: string } };

/** The keys the last start wrote, if they were for this project (a second start reuses them). */
function previousDemo(file: string, projectId: string): DemoKeys | null {
  try {
    const previous = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoKeys> & { projectId?: string };
    return previous.projectId === projectId && previous.keys && previous.accountKeys ? (previous as DemoKeys) : null;
  } catch {
    return null;
  }
}

/**
 * Opens the database and seeds the demo (embedded, or SEED_DEMO=true); returns the database, the
 * demo written to .data/demo.json (or null) and the service's environment for this port.
 */
export async function prepareService(root: string, port: number): Promise<{ database: ServiceDatabase; demo: Demo | null; demoFile: string; env: Record<string, string> }> {
  const database = await openServiceDatabase(root, { progress: true });
  const env: Record<string, string> = { DATABASE_URL: database.url, ...serviceEnvironment(root, port, database.embedded) };
  const demoFile = path.join(root, '.data', 'demo.json');
  if (!(database.embedded || settings().SEED_DEMO)) {
    console.log(progressLine('Demo data', 'not seeded (DATABASE_URL without SEED_DEMO=true)'));
    return { database, demo: null, demoFile, env };
  }
  const { prisma, close } = createDb(database.url);
  const now = new Date();
  const tenant = await seedDemo(prisma, now);
  const { keys, accountKeys } = await demoKeys(prisma, tenant.projectId, previousDemo(demoFile, tenant.projectId), now);
  const sessions = await seedDemoPeople(prisma, tenant, now);
  // Held quotes and a lead need signed receipts: the key the service will run with.
  if (env.SEALING_KEY ?? configuredSealingKey().value) {
    if (env.SEALING_KEY) {
      process.env.SEALING_KEY = env.SEALING_KEY;
      forgetSettings();
    }
    await seedDemoPipeline(prisma, tenant, now);
  }
  await close();
  const demo: Demo = {
    url: `http://localhost:${port}`,
    workspaceId: tenant.workspaceId,
    projectId: tenant.projectId,
    businessId: tenant.businessId,
    bookId: tenant.bookId,
    keys,
    example: demoExample,
    sessions,
    people: DEMO_PEOPLE,
    accountId: tenant.projectId,
    accountKeys,
  };
  mkdirSync(path.dirname(demoFile), { recursive: true });
  writeFileSync(demoFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  console.log(progressLine('Demo data', `a home-services business, its book, people and keys (${path.relative(root, demoFile)})`));
  return { database, demo, demoFile, env };
}

/**
 * Settings the embedded mode provides itself: next-auth on http://localhost with the
 * development sign-in, and a webhook-secret key kept in .data. A deployment brings its own
 * NEXTAUTH_URL, NEXTAUTH_SECRET, OIDC_* and SEALING_KEY (docs/operations.md).
 */
function serviceEnvironment(root: string, port: number, embedded: boolean): Record<string, string> {
  return {
    ...(embedded ? { SEALING_KEY: configuredSealingKey().value ?? embeddedSealingKey(root) } : {}),
    NEXTAUTH_URL: settings().NEXTAUTH_URL ?? `http://localhost:${port}`,
    // Signs only next-auth's short-lived CSRF and sign-in cookies; sessions live in the database.
    NEXTAUTH_SECRET: settings().NEXTAUTH_SECRET ?? randomBytes(32).toString('hex'),
    ...(embedded ? { AUTH_DEV_LOGIN: '1', EMBEDDED_DATABASE: '1' } : {}),
  };
}

/** What a start prints for a person once it serves: where the service, the demo and the docs are (scripts/support/start-output.ts). */
export function printWelcome(url: string, database: ServiceDatabase, demo: Demo | null, demoFile: string): void {
  const shown = path.relative(process.cwd(), demoFile) || demoFile;
  console.log(welcomeLines({ url, embedded: database.embedded, demo, demoFile: shown.startsWith('..') ? demoFile : shown }).join('\n'));
}
