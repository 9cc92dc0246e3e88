import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { createTenant, requestLogEntry, testDb, type Tenant } from '../../lib/testing/factories';
import { insertRequestLogs } from '../../lib/requestlog/store';
import { startApiServer, type ApiServer } from '../support/api-server';

/**
 * The SDK as a stranger gets it: `npm pack` (its prepack builds dist/esm and dist/cjs), the
 * tarball installed into a fresh ESM project and a fresh CommonJS one (`npm init`), a program
 * written as the README writes it type-checked there (this repository's tsc) and run against the
 * service (its router in this process, served over HTTP). Installs are offline: the SDK's
 * dependencies are packed from this repository's node_modules.
 */
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/.bin/tsc');
const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;
let work: string;
let server: ApiServer;
let baseUrl: string;
let tenant: Tenant;
let tarballs: string[];
/** What `npm pack --json` says of the tarball it wrote. */
type Packed = { filename: string; files: { path: string }[] };
let packed: Packed;

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
// The program calls this process's server: waiting for it must leave the event loop free.
const runAsync = async (command: string, args: string[], cwd: string) => (await promisify(execFile)(command, args, { cwd, encoding: 'utf8', timeout: 60_000 })).stdout;

/** Tarballs of a package's dependencies, and theirs, from this repository's node_modules. */
function packDependencies(manifest: { dependencies?: Record<string, string> }, into: string, seen = new Set<string>()): string[] {
  return Object.keys(manifest.dependencies ?? {}).flatMap((name) => {
    if (seen.has(name)) return [];
    seen.add(name);
    const dir = path.join(root, 'node_modules', name);
    const file = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', into, dir], into).trim().split('\n').pop()!;
    return [path.join(into, file), ...packDependencies(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')), into, seen)];
  });
}

/** The README's program: a quote, the account, a list walked, a typed error, a receipt and a delivery verified. */
const program = (module: 'esm' | 'cjs') => `
import { createClient, isQuotePricingError, receipts, webhooks, type WebhookEvent } from '@quote-pricing/sdk';

const qps = createClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(tenant.keys.test)} });
const businessId = ${JSON.stringify(tenant.businessId)};
const bookId = ${JSON.stringify(tenant.bookId)};

// Defaulted fields (factors) may be left out.
const minimal: Parameters<typeof qps.quotes.create>[0] = { businessId, bookId, offeringId: 'window_cleaning' };

async function main() {
  const { quoteIntent, quoteReceipt } = await qps.quotes.create(
    { businessId, bookId, offeringId: 'window_cleaning', factors: ${JSON.stringify(demoExample.factors)} },
    { idempotencyKey: 'order-${module}-0001' },
  );
  const again = await qps.quotes.create(minimal);
  const account = await qps.accounts.retrieveCurrent();
  const firstPage = await qps.accounts(account.id).requestLogs.list({ limit: 1 });
  const walked: string[] = [];
  for await (const entry of qps.accounts(account.id).requestLogs.list({ limit: 1 })) {
    walked.push(entry.request_id);
    if (walked.length === 3) break;
  }
  let code: string | null = null;
  try {
    await qps.quotes.create({ businessId, bookId: '00000000-0000-4000-8000-000000000000', offeringId: 'window_cleaning' });
  } catch (err) {
    if (isQuotePricingError(err, 'createQuote')) code = err.code;
  }
  const check = await receipts.verify(quoteReceipt, qps.receiptKeys);
  const body = JSON.stringify({ id: 'e1', type: 'api_key.rotated', version: 1, created: new Date().toISOString(), data: { graceMinutes: 60 } });
  const event: WebhookEvent = webhooks.verify(body, { 'service-signature': webhooks.sign(body, 'whsec_test') }, 'whsec_test');
  const grace = event.type === 'api_key.rotated' ? event.data.graceMinutes : null;
  console.log(JSON.stringify({
    status: quoteIntent.status,
    total: quoteReceipt.computation?.totalMinor,
    again: again.quoteIntent.status,
    account: account.id,
    firstPage: firstPage.data.length,
    walked: walked.length,
    code,
    receipt: check.status,
    grace,
  }));
}

main().catch((error) => {
  console.error(error);
  throw error;
});
`;

/** The same call with a field the API does not take: must not type-check. */
const wrongField = `
import { createClient } from '@quote-pricing/sdk';
const qps = createClient({ baseUrl: 'http://localhost' });
export const call = () => qps.quotes.create({ businessId: 'b', bookId: 'k', offeringId: 'o', colour: 'red' });
`;

const tsconfig = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, skipLibCheck: true, types: [] },
  files: ['index.ts'],
};

/** A fresh project (`npm init`, ESM when asked) with the SDK installed from its tarball. */
function project(kind: 'esm' | 'cjs'): string {
  const dir = path.join(work, kind);
  mkdirSync(dir);
  run('npm', ['init', '-y'], dir);
  if (kind === 'esm') run('npm', ['pkg', 'set', 'type=module'], dir);
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], dir);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  writeFileSync(path.join(dir, 'index.ts'), program(kind));
  return dir;
}

beforeAll(async () => {
  tenant = await createTenant();
  // The program walks 3 pages of one row of its account's request log: rows there already, so
  // that the walk does not race the log writer's batch of the program's own requests.
  await insertRequestLogs(testDb(), [1, 2, 3].map((n) => requestLogEntry(tenant, { requestId: `sdk-package-${n}-${tenant.projectId}`, apiKeyId: tenant.keyIds.test, environmentId: tenant.environments.test })));
  server = await startApiServer();
  baseUrl = server.url;

  work = mkdtempSync(path.join(os.tmpdir(), 'sdk-package-'));
  // `--json` lists what the tarball holds; before it, the prepack build's own output.
  const out = run('npm', ['pack', '--json', '--pack-destination', work], path.join(root, 'sdk'));
  packed = (JSON.parse(out.slice(out.indexOf('['))) as Packed[])[0];
  tarballs = [path.join(work, packed.filename), ...packDependencies(JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8')), work)];
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

it('packs both builds with their types, the README, and the CLI in the ESM build only', () => {
  const files = packed.files.map((file) => file.path);
  expect(files).toEqual(
    expect.arrayContaining(['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json', 'dist/esm/cli.js', 'package.json', 'README.md']),
  );
  // The CLI is an ESM program (top-level await): only the ESM build has it.
  expect(files.filter((file) => file.startsWith('dist/cjs/cli/') || file.startsWith('dist/cjs/cli.'))).toEqual([]);
});

describe.each(['esm', 'cjs'] as const)('the packed SDK in a fresh %s project', (kind) => {
  let dir: string;
  beforeAll(() => {
    dir = project(kind);
  }, 120_000);

  it('resolves to its own build', () => {
    const resolved =
      kind === 'esm'
        ? run('node', ['--input-type=module', '-e', "console.log(import.meta.resolve('@quote-pricing/sdk'))"], dir)
        : run('node', ['-e', "console.log(require.resolve('@quote-pricing/sdk'))"], dir);
    expect(resolved).toContain(`dist/${kind}/index.js`);
  });

  it('type-checks the README program and runs it against the service', async () => {
    run(tsc, ['-p', 'tsconfig.json'], dir);
    const answer = JSON.parse((await runAsync('node', ['--import', tsx, 'index.ts'], dir)).trim().split('\n').pop()!);
    expect(answer).toEqual({
      status: 'succeeded',
      total: expect.any(Number),
      again: expect.stringMatching(/^(succeeded|requires_input)$/),
      account: tenant.projectId,
      firstPage: 1,
      walked: 3,
      code: 'quote_scope_not_found',
      receipt: 'verified',
      grace: 60,
    });
  }, 60_000);

  it('refuses a body with a field the API does not take', () => {
    writeFileSync(path.join(dir, 'index.ts'), wrongField);
    let output = '';
    try {
      run(tsc, ['-p', 'tsconfig.json'], dir);
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    expect(output).toMatch(/colour/);
  });
});
