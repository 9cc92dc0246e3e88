import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { findFreePort } from '../../lib/db/embedded';
import { eventually } from '../../lib/testing/eventually';
import { createPerson, createTenant, testContext, type Tenant } from '../../lib/testing/factories';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { startNextServer, type RunningServer } from '../../scripts/support/next-server';
import { webhooks } from '../../sdk/src/index';

/**
 * docs/integrating.md, followed literally: every fenced block carries a `<!-- doc-test: name -->`
 * line above it, and each name has a runner here that runs the block as written (shell lines in
 * bash, TypeScript with tsx against the SDK's source, JSON sent where the text says it goes)
 * against a production server. A block without a runner fails the test, so the page cannot grow
 * a command nobody ran. `npm start` is the one line not run: this test's server stands in for it,
 * on port 3000 when that is free (else the block's `localhost:3000` is pointed at the test's).
 */
const root = path.resolve(import.meta.dirname, '../..');
const page = readFileSync(path.join(root, 'docs/integrating.md'), 'utf8');

type Block = { name: string | null; language: string; text: string; line: number };

/** Every fenced block of the page, with the doc-test name on the line above it (null when none). */
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    const marker = /^<!-- doc-test: ([\w-]+) -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ name: marker?.[1] ?? null, language: open[1], text: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return blocks;
}

let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let server: RunningServer;
let tenant: Tenant;
let work: string;
/** The ports the page names, and the ones this run has them on. */
const ports = { service: 3000, receiver: 4000 };
const children: ChildProcess[] = [];

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** The block as it will run here: the page's ports where this run has them elsewhere. */
const onThisRun = (text: string) => text.replaceAll('localhost:3000', `localhost:${ports.service}`).replaceAll('localhost:4000', `localhost:${ports.receiver}`);

/**
 * A shell in the reader's folder, its output so far and its exit; `type` sends it a line, as a
 * reader types the next command once the last one has said it is up.
 */
function shell(env: Record<string, string> = {}) {
  const child = spawn('bash', ['-s'], {
    cwd: work,
    detached: true,
    env: { ...process.env, QPS_BASE_URL: `http://localhost:${ports.service}`, PORT: String(ports.receiver), QPS_STATE_DIR: path.join(work, '.state'), ...env },
  });
  children.push(child);
  const output = { text: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  // 'close', not 'exit': a process may exit before its output has been read from the pipes.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const type = (line: string) => child.stdin!.write(`${line}\n`);
  const seen = (pattern: RegExp, what: string) =>
    eventually(() => (pattern.test(output.text) ? true : undefined), 60_000).catch(() => {
      throw new Error(`${what} never showed (${pattern}); the shell printed:\n${output.text}`);
    });
  return { child, output, exited, type, seen, end: () => child.stdin!.end() };
}

/** What a TypeScript snippet takes as given: an app's own ids, a delivery as its framework hands it over. */
const SNIPPET_SECRET = 'whsec_doc_snippet';
function snippetPrelude(): string {
  const body = JSON.stringify({ id: 'evt_doc', type: 'webhook.test', version: 1, created: new Date().toISOString(), data: {} });
  return [
    `const businessId = ${JSON.stringify(tenant.businessId)};`,
    `const bookId = ${JSON.stringify(tenant.bookId)};`,
    `const offeringId = ${JSON.stringify(demoExample.offeringId)};`,
    `const factors = ${JSON.stringify(demoExample.factors)};`,
    `const orderId = 'order-${Date.now()}';`,
    `const rawBody = ${JSON.stringify(body)};`,
    `const request = { headers: { 'service-signature': ${JSON.stringify(webhooks.sign(body, SNIPPET_SECRET))} } };`,
    '',
  ].join('\n');
}

/** A TypeScript block type-checked and run as a reader's file would be, importing the SDK by its name; its output. */
function runTypeScript(block: Block): string {
  const file = path.join(work, `snippet-${block.line}.ts`);
  writeFileSync(file, `${snippetPrelude()}${onThisRun(block.text)}\nexport {};\n`);
  const env = { ...process.env, QPS_API_KEY: tenant.keys.test, QPS_WEBHOOK_SECRET: SNIPPET_SECRET };
  try {
    execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', work], { cwd: work, encoding: 'utf8', stdio: 'pipe' });
    return execFileSync(process.execPath, ['--import', 'tsx', file], { cwd: work, encoding: 'utf8', stdio: 'pipe', env });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`The block at line ${block.line} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

const runners: Record<string, (block: Block) => Promise<void>> = {
  /** The five commands: all but `npm start`, as written, each typed once the one before is up. */
  'five-commands': async (block) => {
    const [first, ...rest] = block.text.split('\n');
    expect(first).toMatch(/^npm start\s/);
    const reader = shell();
    // What each command prints when it is ready for the next one.
    const up: [RegExp, RegExp][] = [
      [/webhook-receiver/, /receiving on http:\/\/localhost:\d+\/webhooks/],
      [/ listen /, /Ready: forwarding Test events/],
      [/create-quote/, /receipt signature: \w+/],
    ];
    for (const line of rest) {
      reader.type(onThisRun(line));
      const [, ready] = up.find(([command]) => command.test(line)) ?? [];
      if (ready) await reader.seen(ready, line);
    }
    await reader.seen(/verified quote_intent\.succeeded [0-9a-f-]{36}/, 'the receiver verifying the quote\'s event');
    await reader.seen(/quote_intent\.succeeded\s+[0-9a-f-]{36}\s+→ 204 \(\d+ ms, attempt 1\)/, 'qps listen\'s line for the delivery');
    expect(reader.output.text).toMatch(/quote [0-9a-f-]{36}: succeeded, total \d+ \(minor units\)/);
    expect(reader.output.text).toMatch(/receipt signature: verified/);
    expect(reader.output.text).not.toMatch(/refused|Error/);
  },
  /** The body that makes a Test endpoint fail on demand, sent as the page says (PATCH /v1/webhook-endpoints/{id}). */
  'test-failure-body': async (block) => {
    const admin = await createPerson(tenant, { permissions: ['webhooks:manage'] }, iso.db);
    const { endpoint } = await createEndpoint(testContext(iso.db, { principal: admin.principal }), { projectId: tenant.projectId, environment: 'test', url: 'https://receiver.example/hooks' });
    const answer = await fetch(`${server.url}/v1/webhook-endpoints/${endpoint.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: block.text,
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(((await answer.json()) as { data: { endpoint: unknown } }).data.endpoint).toMatchObject(JSON.parse(block.text));
  },
  /** SDK snippets: type-checked and run. */
  sdk: async (block) => {
    const printed = runTypeScript(block).split('\n');
    // The request log walked, then the key's succeeded quotes, newest first.
    const quotes = await iso.db.quoteIntent.findMany({ where: { environmentId: tenant.environments.test, status: 'succeeded' }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
    const printedQuotes = printed.filter((line) => quotes.some((q) => q.id === line));
    expect(printedQuotes).toEqual(quotes.map((q) => q.id));
    expect(printed.length - printedQuotes.length).toBeGreaterThan(1);
  },
  /** A Test-Fault request with curl: the injected 429, in the envelope. */
  'test-fault-curl': async (block) => {
    writeFileSync(path.join(work, 'quote.json'), JSON.stringify({ businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample }));
    const run = shell({ TEST_KEY: tenant.keys.test });
    run.type(onThisRun(block.text));
    run.end();
    expect(await run.exited, run.output.text).toBe(0);
    expect(run.output.text).toMatch(/^HTTP\/1\.1 429/m);
    expect(run.output.text).toMatch(/^retry-after: 1\r?$/im);
    expect(run.output.text).toContain('"code":"rate_limited"');
  },
};

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  tenant = await createTenant({}, iso.db);
  if (!(await portFree(ports.service))) ports.service = await findFreePort();
  if (!(await portFree(ports.receiver))) ports.receiver = await findFreePort();
  server = await startNextServer({ root, port: ports.service, env: { DATABASE_URL: iso.url, JOB_RUNNER: 'off' }, logFile: path.join(root, 'test-results', 'docs-server.log') });
  // The reader's folder: the repository's examples, SDK and tools, and the .data/demo.json `npm start` writes.
  work = mkdtempSync(path.join(os.tmpdir(), 'integrating-doc-'));
  for (const entry of ['node_modules', 'examples', 'sdk', 'package.json']) symlinkSync(path.join(root, entry), path.join(work, entry));
  mkdirSync(path.join(work, '.data'));
  writeFileSync(path.join(work, '.data', 'demo.json'), JSON.stringify({ businessId: tenant.businessId, bookId: tenant.bookId, keys: { test: tenant.keys.test, live: tenant.keys.live } }));
  writeFileSync(
    path.join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
        paths: { '@quote-pricing/sdk': [path.join(root, 'sdk/src/index.ts')] },
      },
      include: ['snippet-*.ts'],
    }),
  );
}, 180_000);

afterAll(async () => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await server?.stop();
  await iso?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('docs/integrating.md, followed as written', () => {
  const blocks = fencedBlocks(page);

  it('names a runner for every block', () => {
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(block.name && block.name in runners, `line ${block.line}: a block with no doc-test runner`).toBe(true);
  });

  // A block may start three Node processes loading TypeScript, one after another (the five
  // commands), or type-check and run a snippet: each can take tens of seconds under CI's load.
  for (const block of blocks.filter((b) => b.name && b.name in runners)) {
    it(`runs ${block.name} (line ${block.line})`, () => runners[block.name!](block), 300_000);
  }
});
