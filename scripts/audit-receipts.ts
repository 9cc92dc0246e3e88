// `npm run audit-receipts -- [--since <date>] [--business <id>]`: every receipt in range (all by
// default) checked against the published keys and recomputed from its stored inputs and pinned
// book version. Prints counts and a progress bar; exits 1 when any signature is bad or any
// recomputation differs (unsigned receipts predate signing: counted, not failures), 2 on bad
// usage. On the service's database (DATABASE_URL, or the embedded one: stop the service first).
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { z } from 'zod';
import { createDb } from '../lib/db/client';
import { auditFailed, auditReceipts, type AuditTally } from '../lib/quotes/audit-receipts';
import { openServiceDatabase } from './support/database';

const usage = 'usage: npm run audit-receipts -- [--since <ISO date>] [--business <businessId>]';

const argsSchema = z.object({
  since: z.iso.date().or(z.iso.datetime({ offset: true })).optional(),
  business: z.uuid().optional(),
});

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { since: { type: 'string' }, business: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const parsed = argsSchema.safeParse({ since: values.since, business: values.business });
  if (!parsed.success) {
    console.error(`${parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('; ')}\n${usage}`);
    return 2;
  }
  const filter = { since: parsed.data.since ? new Date(parsed.data.since) : null, businessId: parsed.data.business ?? null };

  const database = await openServiceDatabase(path.resolve(import.meta.dirname, '..'));
  const { prisma, close } = createDb(database.url);
  const bar = new cliProgress.SingleBar(
    { format: 'auditing {bar} {value}/{total} receipts | {rate}/s | bad signature {bad} | differs {differs}', noTTYOutput: false, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  let tally: AuditTally;
  try {
    let begun = false;
    tally = await auditReceipts({ db: prisma }, filter, (progress) => {
      const rate = Math.round(progress.checked / ((performance.now() - started) / 1000));
      const payload = { rate, bad: progress.badSignature, differs: progress.differs };
      if (!begun) bar.start(progress.total, 0, payload);
      begun = true;
      bar.update(progress.checked, payload);
    });
    if (begun) bar.stop();
  } finally {
    await close();
    await database.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${tally.checked} receipts in ${seconds.toFixed(1)} s (${Math.round(tally.checked / Math.max(seconds, 0.001))}/s): ` +
      `${tally.verified} verified, ${tally.badSignature} bad signature, ${tally.differs} differ on recomputation, ${tally.unsigned} unsigned (written before signing).`,
  );
  for (const failure of tally.failures) {
    console.log(
      `  quote ${failure.quoteIntentId}: signature ${failure.signature.replaceAll('_', ' ')}` +
        `${failure.recomputedIdentically ? '' : '; recomputation differs'} (POST /v1/quote-intents/${failure.quoteIntentId}/verification says where)`,
    );
  }
  return auditFailed(tally) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
