// `npm run keys -- create --project <id> --environment test|live [--name "…"] [--scopes a,b]`
// Mints an API key on the service's database (DATABASE_URL, or the embedded one).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SCOPES } from '../lib/auth/scopes';
import { systemContext } from '../lib/context/verb-context';
import { createDb } from '../lib/db/client';
import { parseOrThrow } from '../lib/errors/parse-or-throw';
import { ServiceError } from '../lib/errors/service-error';
import { createApiKey } from '../lib/keys/create-api-key';
import { openServiceDatabase } from './support/database';

const usage = 'usage: npm run keys -- create --project <projectId> --environment test|live [--name NAME] [--scopes a,b]';

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

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      environment: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
    },
  });
  if (positionals[0] !== 'create') throw new Error(usage);
  const args = parseOrThrow(argsSchema, values, 'invalid_request', 'arguments');
  const database = await openServiceDatabase(path.resolve(import.meta.dirname, '..'));
  const { prisma, close } = createDb(database.url);
  try {
    const { apiKey, secret } = await createApiKey(systemContext(prisma, 'keys-cli'), {
      projectId: args.project,
      environment: args.environment,
      name: args.name,
      scopes: args.scopes,
      createdBy: 'cli',
    });
    console.log(JSON.stringify({ apiKey, secret }, null, 2));
    console.error('The secret is shown once; only its digest is stored.');
  } finally {
    await close();
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof ServiceError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : error);
  process.exit(1);
});
