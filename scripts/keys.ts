// `npm run keys -- create --project <id> --environment test|live [--name "…"] [--scopes a,b]`
//   mints an API key;
// `npm run keys -- rotate-receipt-signing-key [--announce-minutes N]` publishes a new receipt
//   signing key that signs from N minutes on (default 60; 0: at once), when the current one stops
//   (it keeps verifying the receipts it signed); `npm run keys -- receipt-signing-keys` lists them.
// On the service's database (DATABASE_URL, or the embedded one: stop the service first).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SCOPES } from '../lib/auth/scopes';
import { systemContext, type VerbContext } from '../lib/context/verb-context';
import { DEFAULT_ANNOUNCE_MINUTES, receiptSigningKeySet, rotateReceiptSigningKey } from '../lib/receipts/signing-keys';
import { configuredSealingKey } from '../lib/sealing/sealing-key';
import { createDb } from '../lib/db/client';
import { parseOrThrow } from '../lib/errors/parse-or-throw';
import { ServiceError } from '../lib/errors/service-error';
import { createApiKey } from '../lib/keys/create-api-key';
import { embeddedSealingKey, openServiceDatabase } from './support/database';
import { forgetSettings } from '../lib/settings/settings';

const usage = [
  'usage: npm run keys -- create --project <projectId> --environment test|live [--name NAME] [--scopes a,b]',
  '       npm run keys -- rotate-receipt-signing-key [--announce-minutes N]   (default 60; 0: at once)',
  '       npm run keys -- receipt-signing-keys',
].join('\n');

const argsSchema = z.object({
  project: z.uuid(),
  environment: z.enum(['test', 'live']),
  name: z.string().min(1).max(200).default('API key'),
  scopes: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').map((x) => x.trim()) : undefined))
    .pipe(z.array(z.enum(SCOPES)).optional()),
});

const rotationArgsSchema = z.object({
  'announce-minutes': z.coerce.number().int().min(0).max(7 * 24 * 60).default(DEFAULT_ANNOUNCE_MINUTES),
});

type Command = (ctx: VerbContext, values: Record<string, unknown>) => Promise<void>;

const COMMANDS = {
  create: async (ctx, values) => {
    const args = parseOrThrow(argsSchema, values, 'invalid_request', 'arguments');
    const { apiKey, secret } = await createApiKey(ctx, {
      projectId: args.project,
      environment: args.environment,
      name: args.name,
      scopes: args.scopes,
      createdBy: 'cli',
    });
    console.log(JSON.stringify({ apiKey, secret }, null, 2));
    console.error('The secret is shown once; only its digest is stored.');
  },
  'rotate-receipt-signing-key': async (ctx, values) => {
    const { 'announce-minutes': announceMinutes } = parseOrThrow(rotationArgsSchema, values, 'invalid_request', 'arguments');
    const { kid, retiredKid, activeFrom } = await rotateReceiptSigningKey(ctx, { announceMinutes });
    if (announceMinutes === 0) {
      console.log(`Receipts are now signed with ${kid}.${retiredKid ? ` ${retiredKid} stopped signing; it stays published, so the receipts it signed keep verifying.` : ''}`);
      console.log('Running instances switch to the new key with their next quote.');
    } else {
      console.log(`${kid} is published now and signs receipts from ${activeFrom.toISOString()} (in ${announceMinutes} min)${retiredKid ? `, when ${retiredKid} stops (it stays published)` : ''}.`);
      console.log('Verifiers that cache the key set (GET /v1/receipt-signing-keys, 5 min) know the new key before it signs.');
    }
  },
  'receipt-signing-keys': async (ctx) => {
    console.log(JSON.stringify(await receiptSigningKeySet(ctx), null, 2));
  },
} satisfies Record<string, Command>;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      environment: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      'announce-minutes': { type: 'string' },
    },
  });
  const command = COMMANDS[positionals[0] as keyof typeof COMMANDS];
  if (!command) throw new Error(usage);
  const root = path.resolve(import.meta.dirname, '..');
  const database = await openServiceDatabase(root);
  // Receipt signing keys are sealed with the same key as the running service's.
  if (database.embedded && !configuredSealingKey().value) {
    process.env.SEALING_KEY = embeddedSealingKey(root);
    forgetSettings();
  }
  const { prisma, close } = createDb(database.url);
  try {
    await command(systemContext(prisma, 'keys-cli'), values);
  } finally {
    await close();
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof ServiceError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : error);
  process.exit(1);
});
