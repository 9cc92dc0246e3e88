// `npm run reliability [-- --quotes 3000] [--only crash,races,slow,halfclose,history,streams,oddbytes,acceptance,erasure]`: the figures of
// docs/reliability.md, measured against the production build on a fresh embedded PostgreSQL with
// the in-process job runner and a real HTTPS receiver:
// - crash: quotes from 16 retrying clients while every service process is killed with SIGKILL,
//   then one worker alone; quotes lost, duplicated, and deliveries lost once the runner catches up;
// - races: 100 requests at once with one idempotency key, in rounds, on a quote and a generic write;
// - slow: clients that send their headers or body too slowly, while others are served;
// - halfclose: requests whose client closes its side after sending;
// - oddbytes, acceptance, erasure: the request log against odd bytes, the acceptance allowance
//   under attack, and a search of every table after an erasure (scripts/support/reliability-surfaces.ts).
// - history: webhook attempt history across kill -9 under load (crashHistory below).
// - streams: others' quote latency with none and with as many event streams open as the instance allows (streamFlood).
// Prints a summary and writes test-results/reliability.json.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { demoExample } from '../lib/books/demo-book';
import { createDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded';
import { applyMigrations } from '../lib/db/migrate';
import { createApiKey } from '../lib/keys/create-api-key';
import { STREAM_LIMITS } from '../lib/ratelimit/registry';
import { createPerson, createTenant, testContext } from '../lib/testing/factories';
import { signedBy, startReceiver } from '../lib/testing/https-receiver';
import { createEndpoint } from '../lib/webhooks/create-endpoint';
import { streamsPerProcess } from '../lib/webhooks/event-stream-hub';
// @ts-expect-error: plain JavaScript, shared with scripts/serve.mjs
import { serveSettings } from './http-edge.mjs';
import { ensureBuild, startThrowawayService, type RunningServer } from './support/next-server';
import { acceptanceAttackCase, erasureSearchCase, oddBytesCase } from './support/reliability-surfaces';
import { writeTestCertificates } from './support/test-certificates';
import { forgetSettings } from '../lib/settings/settings';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { quotes: { type: 'string', default: '3000' }, only: { type: 'string' } } });
const wants = (name: string) => !values.only || values.only.split(',').includes(name);
const log = (message: string) => console.error(`[reliability ${new Date().toISOString().slice(11, 19)}] ${message}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The service's primary and its cluster workers. */
function processTree(pid: number): number[] {
  let listing = '';
  try {
    listing = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps exits 1 when the process has no children
  }
  const children = listing
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  return [pid, ...children.flatMap(processTree)];
}

/**
 * Case `history` (issue 39): Live quotes from 16 clients while their webhooks go to a receiver
 * answering in 100 ms (a backlog builds, so a window of sends is in flight); every service
 * process killed with SIGKILL at 1/3 of the quotes and the service restarted, one worker killed at
 * 2/3. Once every delivery has settled: attempt numbers missing below a delivery's highest
 * (gaps), attempts whose outcome was lost (and how many of those the receiver got), attempts
 * still `sending`, deliveries never received.
 */
async function crashHistory(c: {
  db: ReturnType<typeof createDb>;
  tenant: Awaited<ReturnType<typeof createTenant>>;
  asAdmin: Parameters<typeof createEndpoint>[0];
  quotes: number;
  service: () => RunningServer;
  restart: () => Promise<void>;
}) {
  const receiver = await startReceiver(() => ({ status: 200, afterMs: 100 }));
  try {
    const { endpoint } = await createEndpoint(c.asAdmin, { projectId: c.tenant.projectId, environment: 'live', url: receiver.url, eventTypes: ['quote_intent.succeeded'] });
    log(`history: ${c.quotes} Live quotes from 16 clients, webhooks to a 100 ms receiver; SIGKILL of every process at 1/3, of one worker at 2/3`);
    let next = 0;
    let answered = 0;
    const client = async () => {
      while (next < c.quotes) {
        const key = `history-${String(next++).padStart(6, '0')}`;
        for (;;) {
          try {
            const res = await fetch(`${c.service().url}/v1/quotes`, {
              method: 'POST',
              headers: { authorization: `Bearer ${c.tenant.keys.live}`, 'content-type': 'application/json' },
              body: JSON.stringify({ businessId: c.tenant.businessId, bookId: c.tenant.bookId, ...demoExample, idempotencyKey: key }),
              signal: AbortSignal.timeout(10_000),
            });
            await res.text();
            if (res.status === 201 || (res.status < 500 && res.status !== 409 && res.status !== 429)) break;
          } catch {
            // killed mid-request, or down: the same request again
          }
          await sleep(100);
        }
        answered++;
      }
    };
    const killer = async () => {
      while (answered < c.quotes / 3) await sleep(20);
      const pids = processTree(c.service().process.pid!);
      const received = receiver.received.length;
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      log(`history: SIGKILL ${pids.length} processes (${answered} quotes answered, ${received} webhooks received, ${receiver.load.inFlight} in flight)`);
      await sleep(1000);
      await c.restart();
      while (answered < (2 * c.quotes) / 3) await sleep(20);
      const worker = processTree(c.service().process.pid!)[1];
      log(`history: SIGKILL one worker, ${worker} (${answered} quotes answered, ${receiver.load.inFlight} webhooks in flight)`);
      process.kill(worker, 'SIGKILL');
    };
    const started = Date.now();
    await Promise.all([...Array.from({ length: 16 }, client), killer()]);
    log('history: load done; waiting for every delivery to settle');
    const query = async <T extends Record<string, unknown>>(sql: string) => (await c.db.pool.query<T>(sql, [endpoint.id])).rows;
    const deadline = Date.now() + 300_000;
    let settledAfter: number | null = null;
    while (Date.now() < deadline) {
      const [{ open }] = await query<{ open: number }>(
        `SELECT (SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending')
              + (SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1 AND a.state = 'sending') AS open`,
      );
      if (Number(open) === 0) {
        settledAfter = (Date.now() - started) / 1000;
        break;
      }
      await sleep(1000);
    }
    const [counts] = await query<Record<string, string>>(
      `SELECT count(*) AS deliveries,
              count(*) FILTER (WHERE d.status = 'succeeded') AS succeeded,
              count(*) FILTER (WHERE a.top IS DISTINCT FROM a.rows) AS "deliveriesWithGaps",
              COALESCE(sum(a.top - a.rows), 0) AS "attemptNumbersMissing",
              count(*) FILTER (WHERE d.attempts_started > COALESCE(a.top, 0)) AS "startedWithoutRecord",
              COALESCE(sum(a.rows), 0) AS attempts,
              COALESCE(sum(a.lost), 0) AS "lostAttempts",
              COALESCE(sum(a.sending), 0) AS "stillSending",
              count(*) FILTER (WHERE a.lost > 0) AS "deliveriesWithALostAttempt"
         FROM webhook_deliveries d
         LEFT JOIN (SELECT delivery_id, max(number) AS top, count(*) AS rows, count(*) FILTER (WHERE state = 'lost') AS lost,
                           count(*) FILTER (WHERE state = 'sending') AS sending
                      FROM webhook_attempts GROUP BY delivery_id) a ON a.delivery_id = d.id
        WHERE d.endpoint_id = $1`,
    );
    const lost = await query<{ delivery_id: string; number: number }>(
      `SELECT a.delivery_id::text, a.number FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1 AND a.state = 'lost'`,
    );
    const got = new Set(receiver.received.map((r) => `${r.headers['service-delivery-id']}/${r.headers['service-attempt']}`));
    const receivedDeliveries = new Set(receiver.received.map((r) => String(r.headers['service-delivery-id'])));
    const deliveryIds = (await query<{ id: string }>(`SELECT id::text FROM webhook_deliveries WHERE endpoint_id = $1`)).map((r) => r.id);
    return {
      quotes: c.quotes,
      ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])),
      lostAttemptsTheReceiverGot: lost.filter((a) => got.has(`${a.delivery_id}/${a.number}`)).length,
      deliveriesNeverReceived: deliveryIds.filter((id) => !receivedDeliveries.has(id)).length,
      receivedTwiceOrMore: receiver.received.length - receivedDeliveries.size,
      peakInFlight: receiver.load.peakInFlight,
      allSettledAfterSeconds: settledAfter,
    };
  } finally {
    await receiver.stop();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Count, p50, p99 and max of latencies in ms. */
function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { quotes: sorted.length, p50Ms: Math.round(percentile(sorted, 50)), p99Ms: Math.round(percentile(sorted, 99)), maxMs: Math.round(sorted.at(-1) ?? 0) };
}

/**
 * streams: quotes of a tenant with no event stream, measured in turns with none open and with as
 * many open as the instance allows (STREAM_LIMITS per key and workspace, EVENT_STREAMS_PER_PROCESS
 * per process, spread over enough workspaces and keys); the answers beyond each bound, how soon
 * the places are free once the listeners leave, and how soon a worker killed with SIGKILL gives
 * its places back. (One statement per poll for all of a process's
 * streams is counted by test/webhooks/event-stream.integration.test.ts.)
 */
async function streamFlood(options: { base: string; db: ReturnType<typeof createDb>; servicePid: () => number; seconds: number; cycles: number }) {
  const { base, db } = options;
  // The others: a tenant of its own, with no webhook endpoint (its quotes queue no deliveries).
  const quoter = await createTenant({}, db.prisma);
  const quote = (key: string) =>
    fetch(`${base}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${quoter.keys.test}`, 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: quoter.businessId, bookId: quoter.bookId, ...demoExample, idempotencyKey: key }),
    });
  // The service runs beside its embedded database here: the edge's default for that (or WEB_CONCURRENCY).
  const processes: number = serveSettings({ ...process.env, DATABASE_URL: '' }).workers;
  const total = processes * streamsPerProcess();
  const workspaces = Math.ceil(total / STREAM_LIMITS.perWorkspace);
  const keysPerWorkspace = Math.ceil(STREAM_LIMITS.perWorkspace / STREAM_LIMITS.perKey);
  log(`streams: ${total} streams (${processes} processes), ${workspaces} workspaces of ${keysPerWorkspace} Test keys`);
  const tenants: string[][] = [];
  for (let w = 0; w < workspaces + 1; w++) {
    const tenant = await createTenant({}, db.prisma);
    const keys = [];
    for (let k = 0; k < keysPerWorkspace + 1; k++) keys.push((await createApiKey(testContext(db.prisma), { projectId: tenant.projectId, environment: 'test', name: `listener ${k}` })).secret);
    tenants.push(keys);
  }
  const spare = tenants.pop()!;

  /** Quotes from 4 clients for `seconds`: their latencies, and the window's figures. */
  const quotesFor = async (label: string) => {
    const latencies: number[] = [];
    const until = Date.now() + options.seconds * 1000;
    const failed: Record<string, number> = {};
    await Promise.all(
      Array.from({ length: 4 }, async (_, c) => {
        for (let i = 0; Date.now() < until; i++) {
          const t = performance.now();
          const res = await quote(`streams-${label}-${c}-${i}-${randomUUID()}`);
          const text = await res.text();
          if (res.status === 201) latencies.push(performance.now() - t);
          else failed[`${res.status} ${text.slice(0, 120)}`] = (failed[`${res.status} ${text.slice(0, 120)}`] ?? 0) + 1;
        }
      }),
    );
    const figures = { ...summary(latencies), failed, loadAverage1m: Number(os.loadavg()[0].toFixed(1)) };
    log(`streams: quotes with ${label}: ${JSON.stringify(figures)}`);
    return { latencies, figures };
  };
  const liveSlots = async () => Number((await db.pool.query(`SELECT count(*) FROM event_stream_leases WHERE expires_at > now()`)).rows[0].count);

  type Listener = { key: string; abort: AbortController; ended: boolean };
  const listeners: Listener[] = [];
  const refusals: Record<string, number> = {};
  const open = async (key: string): Promise<{ status: number; retryAfter: number }> => {
    const abort = new AbortController();
    const res = await fetch(`${base}/v1/event-stream`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
    if (!res.ok) {
      refusals[res.status] = (refusals[res.status] ?? 0) + 1;
      await res.text();
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 1) };
    }
    const listener: Listener = { key, abort, ended: false };
    listeners.push(listener);
    void (async () => {
      try {
        for await (const _ of res.body!) void _;
      } catch {
        // aborted, or the process went away
      }
      listener.ended = true;
    })();
    return { status: 200, retryAfter: 0 };
  };
  /** Opens a stream for `key` as `qps listen` does: refused, it waits `retry-after` and tries again. */
  const openPatiently = async (key: string, deadline: number) => {
    for (;;) {
      const { status, retryAfter } = await open(key);
      if (status === 200 || Date.now() > deadline) return status;
      await sleep(retryAfter * 1000);
    }
  };

  const openAll = async () => {
    const opening = Date.now();
    await Promise.all(
      tenants.map(async (keys) => {
        for (let k = 0; k < keysPerWorkspace; k++) for (let i = 0; i < STREAM_LIMITS.perKey && listeners.length < total; i++) await openPatiently(keys[k], Date.now() + 60_000);
      }),
    );
    const opened = { streams: listeners.length, seconds: (Date.now() - opening) / 1000, refusedOnTheWay: { ...refusals } };
    for (const status of Object.keys(refusals)) delete refusals[status];
    return opened;
  };
  /** Every listener hangs up; how soon their places are free. */
  const closeAll = async () => {
    const closing = Date.now();
    for (const l of listeners.splice(0)) l.abort.abort();
    while ((await liveSlots()) > 0 && Date.now() - closing < 15_000) await sleep(100);
    return { slotsLeft: await liveSlots(), freedAfterSeconds: (Date.now() - closing) / 1000 };
  };

  // None open and all open in turn, so that the machine's other work falls on both alike.
  const results: Record<string, unknown> = { processes, streamsAllowed: total, perKey: STREAM_LIMITS.perKey, perWorkspace: STREAM_LIMITS.perWorkspace };
  const pooled = { noneOpen: [] as number[], allOpen: [] as number[] };
  const cycles = [];
  for (let cycle = 1; cycle <= options.cycles; cycle++) {
    const none = await quotesFor(`none open (${cycle})`);
    const opened = await openAll();
    const all = await quotesFor(`${listeners.length} open (${cycle})`);
    pooled.noneOpen.push(...none.latencies);
    pooled.allOpen.push(...all.latencies);
    cycles.push({ noneOpen: none.figures, opened, allOpen: all.figures, ...(cycle < options.cycles ? { closed: await closeAll() } : {}) });
  }
  results.cycles = cycles;
  const [none, all] = [summary(pooled.noneOpen), summary(pooled.allOpen)];
  results.pooled = { noneOpen: none, allOpen: all, p99AllOpenOverNoneOpen: Number((all.p99Ms / none.p99Ms).toFixed(2)) };
  log(`streams: pooled: ${JSON.stringify(results.pooled)}`);

  // Still all open: one more for a full key, a full workspace, and a new workspace on a full instance.
  results.beyondTheBounds = {
    perKey: (await open(tenants[0][0])).status,
    perWorkspace: (await open(tenants[0][keysPerWorkspace])).status,
    perInstance: (await open(spare[0])).status,
  };
  log(`streams: ${listeners.length} open; beyond the bounds: ${JSON.stringify(results.beyondTheBounds)}`);

  // A worker dies with its streams: their listeners reconnect, and get places once the dead one's run out.
  const worker = processTree(options.servicePid())[1];
  const slotsBefore = await liveSlots();
  const killedAt = Date.now();
  process.kill(worker, 'SIGKILL');
  log(`streams: SIGKILL worker ${worker}`);
  while (listeners.filter((l) => l.ended).length === 0 && Date.now() - killedAt < 5_000) await sleep(50);
  await sleep(1000);
  const lost = listeners.filter((l) => l.ended);
  for (const l of lost) listeners.splice(listeners.indexOf(l), 1);
  const reopened = await Promise.all(lost.map((l) => openPatiently(l.key, killedAt + 90_000)));
  results.workerKilled = {
    slotsBefore,
    streamsLost: lost.length,
    reopened: reopened.filter((s) => s === 200).length,
    allReopenedAfterSeconds: (Date.now() - killedAt) / 1000,
    refusedOnTheWay: { ...refusals },
  };
  log(`streams: ${JSON.stringify(results.workerKilled)}`);
  results.closed = await closeAll();
  return results;
}

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'quote-reliability-'));
  chmodSync(tmp, 0o755); // PostgreSQL runs as the `postgres` OS user when we are root
  const cleanups: (() => Promise<unknown>)[] = [];
  const results: Record<string, unknown> = { startedAt: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version } };
  try {
    log(`database: fresh embedded PostgreSQL in ${tmp}`);
    const database = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg') });
    cleanups.push(() => database.stop());
    await applyMigrations(database.url, path.join(root, 'prisma/migrations'));
    const db = createDb(database.url);
    cleanups.push(() => db.close());
    const webhookKey = randomBytes(32).toString('hex');
    process.env.SEALING_KEY = webhookKey;
    process.env.WEBHOOKS_ALLOW_PRIVATE_TARGETS = 'true'; // createEndpoint takes the loopback receiver, as the service does
    const certs = await writeTestCertificates(tmp);
    process.env.TEST_TLS_CERT = certs.certFile;
    process.env.TEST_TLS_KEY = certs.keyFile;
    forgetSettings(); // the verbs called here read the key and the target policy from lib/settings
    const receiver = await startReceiver(() => 200);
    cleanups.push(() => receiver.stop());

    const tenant = await createTenant({}, db.prisma);
    const admin = await createPerson(tenant, { permissions: 'all' }, db.prisma);
    const asAdmin = testContext(db.prisma, { principal: admin.principal });
    const endpoint = await createEndpoint(asAdmin, { projectId: tenant.projectId, environment: 'test', url: receiver.url });

    ensureBuild(root);
    // Restarts after each crash come back on the first start's port, where the clients retry.
    const started = await startThrowawayService({ root, databaseUrl: database.url, webhookKey, caFile: certs.caFile, logFile: path.join(tmp, 'service.log') });
    let service: RunningServer = started.service;
    const start = started.restart;
    cleanups.push(() => service.stop());
    const base = service.url;
    const quoteBody = (key: string) => JSON.stringify({ businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample, idempotencyKey: key });
    const quoteHeaders = { authorization: `Bearer ${tenant.keys.test}`, 'content-type': 'application/json' };

    if (wants('crash')) {
      const total = Number(values.quotes);
      log(`crash: ${total} quotes from 16 retrying clients; SIGKILL of every process at 1/3, of one worker at 2/3`);
      const answers = new Map<string, { ids: Set<string>; attempts: number; refused: number; timedOut: number }>();
      const nonCreated: Record<number, number> = {};
      let next = 0;
      let done = 0;
      const client = async () => {
        while (next < total) {
          const key = `crash-${String(next++).padStart(6, '0')}`;
          const outcome = { ids: new Set<string>(), attempts: 0, refused: 0, timedOut: 0 };
          answers.set(key, outcome);
          // A careful client: the same key and body until it has an answer it can act on.
          for (;;) {
            outcome.attempts++;
            try {
              // A careful client gives up on an attempt after 10 s, and retries it.
              const res = await fetch(`${base}/v1/quotes`, { method: 'POST', headers: quoteHeaders, body: quoteBody(key), signal: AbortSignal.timeout(10_000) });
              const body = (await res.json()) as { data?: { quoteIntent: { id: string } } };
              if (res.status === 201) {
                outcome.ids.add(body.data!.quoteIntent.id);
                break;
              }
              nonCreated[res.status] = (nonCreated[res.status] ?? 0) + 1;
              // Only a conflict or a server-side failure is worth the same request again.
              if (res.status < 500 && res.status !== 409 && res.status !== 429) break;
            } catch (error) {
              // Refused or reset: the service is down or was killed mid-request; or no answer in 10 s.
              if ((error as Error).name === 'TimeoutError') outcome.timedOut++;
              else outcome.refused++;
            }
            await sleep(100);
          }
          done++;
        }
      };
      const killer = async () => {
        while (done < total / 3) await sleep(20);
        const pids = processTree(service.process.pid!);
        log(`crash: SIGKILL ${pids.length} processes (${done} quotes answered)`);
        for (const pid of pids) process.kill(pid, 'SIGKILL');
        await sleep(1000);
        service = await start();
        log('crash: service restarted');
        while (done < (2 * total) / 3) await sleep(20);
        const worker = processTree(service.process.pid!)[1];
        log(`crash: SIGKILL one worker, ${worker} (${done} quotes answered)`);
        process.kill(worker, 'SIGKILL');
      };
      const loadStarted = Date.now();
      await Promise.all([...Array.from({ length: 16 }, client), killer()]);
      const loadSeconds = (Date.now() - loadStarted) / 1000;
      log(`crash: load done in ${loadSeconds.toFixed(1)} s; waiting for the runner to deliver every event`);
      const deliveriesOf = async () =>
        (
          await db.pool.query<{ status: string; count: string }>(
            `SELECT d.status, count(*) FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
             JOIN quote_intents q ON q.id = e.subject_id WHERE q.idempotency_key LIKE 'crash-%' GROUP BY d.status`,
          )
        ).rows;
      const deadline = Date.now() + 300_000;
      let drainedAfter: number | null = null;
      for (;;) {
        const rows = await deliveriesOf();
        if (rows.every((r) => r.status !== 'pending')) {
          drainedAfter = (Date.now() - loadStarted) / 1000;
          break;
        }
        if (Date.now() > deadline) break;
        await sleep(1000);
      }
      const intents = (
        await db.pool.query<{ key: string; ids: string[] }>(
          `SELECT idempotency_key AS key, array_agg(id::text) AS ids FROM quote_intents WHERE idempotency_key LIKE 'crash-%' GROUP BY 1`,
        )
      ).rows;
      const stored = new Map(intents.map((r) => [r.key, r.ids]));
      const events = (
        await db.pool.query<{ id: string }>(
          `SELECT e.id::text FROM outbox_events e JOIN quote_intents q ON q.id = e.subject_id WHERE q.idempotency_key LIKE 'crash-%'`,
        )
      ).rows.map((r) => r.id);
      const receivedIds = receiver.received.map((r) => String(r.headers['service-event-id']));
      const receivedOnce = new Set(receivedIds);
      const answered = [...answers.values()].filter((a) => a.ids.size > 0);
      const crash = {
        quotes: total,
        loadSeconds,
        answered201: answered.length,
        retries: [...answers.values()].reduce((n, a) => n + a.attempts - 1, 0),
        attemptsRefusedOrReset: [...answers.values()].reduce((n, a) => n + a.refused, 0),
        attemptsAnsweredOtherThan201: nonCreated,
        attemptsUnansweredIn10s: [...answers.values()].reduce((n, a) => n + a.timedOut, 0),
        lost: [...answers].filter(([key, a]) => a.ids.size > 0 && !stored.get(key)?.includes([...a.ids][0])).length,
        duplicated: intents.filter((r) => r.ids.length > 1).length + answered.filter((a) => a.ids.size > 1).length,
        storedWithoutAnswer: [...stored.keys()].filter((key) => !answers.get(key)?.ids.size).length,
        events: events.length,
        deliveries: Object.fromEntries((await deliveriesOf()).map((r) => [r.status, Number(r.count)])),
        deliveriesLost: events.filter((id) => !receivedOnce.has(id)).length,
        receivedTwiceOrMore: receivedIds.length - receivedOnce.size,
        badSignatures: receiver.received.filter((r) => !signedBy(r, endpoint.secret)).length,
        allDeliveredAfterSeconds: drainedAfter,
      };
      results.crash = crash;
      log(`crash: ${JSON.stringify(crash)}`);
    }

    if (wants('history')) {
      results.crashHistory = await crashHistory({
        db,
        tenant,
        asAdmin,
        quotes: Number(values.quotes),
        service: () => service,
        restart: async () => {
          service = await start();
          log('history: service restarted');
        },
      });
      log(`history: ${JSON.stringify(results.crashHistory)}`);
    }

    if (wants('races')) {
      const rounds = 20;
      const width = 100;
      log(`races: ${rounds} rounds of ${width} concurrent requests with one key`);
      const quoteRounds: number[] = [];
      const writeRounds: number[] = [];
      const statuses: Record<string, number> = {};
      for (let round = 0; round < rounds; round++) {
        const key = `race-${round}-${randomUUID()}`;
        const quotes = await Promise.all(
          Array.from({ length: width }, () => fetch(`${base}/v1/quotes`, { method: 'POST', headers: quoteHeaders, body: quoteBody(key) }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: { quoteIntent: { id: string } } } }))),
        );
        for (const q of quotes) statuses[`quote ${q.status}`] = (statuses[`quote ${q.status}`] ?? 0) + 1;
        quoteRounds.push(new Set(quotes.filter((q) => q.status === 201).map((q) => q.body.data!.quoteIntent.id)).size);
        const bookKey = `race-${round}-${key.slice(-8)}`;
        const writes = await Promise.all(
          Array.from({ length: width }, () =>
            fetch(`${base}/v1/books`, {
              method: 'POST',
              headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', 'idempotency-key': key },
              body: JSON.stringify({ projectId: tenant.projectId, key: bookKey, name: 'Race' }),
            }).then((r) => r.status),
          ),
        );
        for (const s of writes) statuses[`book ${s}`] = (statuses[`book ${s}`] ?? 0) + 1;
        writeRounds.push(Number((await db.pool.query(`SELECT count(*) FROM books WHERE key = $1`, [bookKey])).rows[0].count));
      }
      results.races = {
        rounds,
        width,
        quoteIntentsPerRound: { min: Math.min(...quoteRounds), max: Math.max(...quoteRounds) },
        booksPerRound: { min: Math.min(...writeRounds), max: Math.max(...writeRounds) },
        statuses,
      };
      log(`races: ${JSON.stringify(results.races)}`);
    }

    if (wants('slow')) {
      const slowClients = 100;
      log(`slow: ${slowClients} clients trickling their body, ${slowClients} their headers, while others quote`);
      const [host, portText] = base.replace('http://', '').split(':');
      const trickle = (kind: 'body' | 'headers') =>
        new Promise<{ status: number; seconds: number }>((resolve) => {
          const started = Date.now();
          const socket = net.connect({ host, port: Number(portText) });
          let response = '';
          let timer: NodeJS.Timeout;
          socket.on('connect', () => {
            // With a valid key: the route waits for the body (an unauthenticated one answers 401 at once).
            const headers = `POST /v1/quotes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.keys.test}\r\n`;
            socket.write(kind === 'body' ? `${headers}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{` : headers);
            timer = setInterval(() => socket.writable && socket.write(kind === 'body' ? ' ' : `X-Slow-${Date.now()}: 1\r\n`), 2000);
          });
          socket.on('data', (d) => (response += d.toString()));
          const finish = () => {
            clearInterval(timer);
            resolve({ status: Number(response.split(' ')[1] ?? 0), seconds: (Date.now() - started) / 1000 });
          };
          socket.on('close', finish);
          socket.on('error', () => undefined);
        });
      const slow = [...Array.from({ length: slowClients }, () => trickle('body')), ...Array.from({ length: slowClients }, () => trickle('headers'))];
      const latencies: number[] = [];
      const served = (async () => {
        const until = Date.now() + 20_000;
        let i = 0;
        while (Date.now() < until) {
          const t = performance.now();
          const res = await fetch(`${base}/v1/quotes`, { method: 'POST', headers: quoteHeaders, body: quoteBody(`slow-${i++}-${randomUUID()}`) });
          await res.text();
          if (res.status === 201) latencies.push(performance.now() - t);
        }
      })();
      const [outcomes] = await Promise.all([Promise.all(slow), served]);
      latencies.sort((a, b) => a - b);
      const summarize = (list: { status: number; seconds: number }[]) => ({
        statuses: list.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {}),
        closedAfterSeconds: { min: Math.min(...list.map((o) => o.seconds)), max: Math.max(...list.map((o) => o.seconds)) },
      });
      results.slow = {
        clientsPerKind: slowClients,
        trickledBody: summarize(outcomes.slice(0, slowClients)),
        trickledHeaders: summarize(outcomes.slice(slowClients)),
        othersServed: { quotes: latencies.length, p50Ms: Math.round(percentile(latencies, 50)), p99Ms: Math.round(percentile(latencies, 99)) },
      };
      log(`slow: ${JSON.stringify(results.slow)}`);
    }

    if (wants('halfclose')) {
      const count = 500;
      log(`halfclose: ${count} quotes whose client half-closes after sending`);
      const [host, portText] = base.replace('http://', '').split(':');
      let answered = 0;
      const keys: string[] = [];
      for (let start = 0; start < count; start += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, count - start) }, () => {
            const key = `halfclose-${randomUUID()}`;
            keys.push(key);
            const body = quoteBody(key);
            return new Promise<void>((resolve) => {
              const socket = net.connect({ host, port: Number(portText), allowHalfOpen: true });
              let response = '';
              socket.on('connect', () =>
                socket.end(
                  `POST /v1/quotes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.keys.test}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
                ),
              );
              socket.on('data', (d) => (response += d.toString()));
              socket.on('close', () => {
                if (response.startsWith('HTTP/1.1 201')) answered++;
                resolve();
              });
              socket.on('error', () => undefined);
            });
          }),
        );
      }
      const stored = Number((await db.pool.query(`SELECT count(*) FROM quote_intents WHERE idempotency_key = ANY($1)`, [keys])).rows[0].count);
      results.halfClose = { requests: count, answered201: answered, stored };
      log(`halfclose: ${JSON.stringify(results.halfClose)}`);
    }

    const surfaces = { base, db, log };
    if (wants('oddbytes')) {
      results.oddBytes = await oddBytesCase(surfaces, 3_000);
      log(`oddbytes: ${JSON.stringify(results.oddBytes)}`);
    }
    if (wants('acceptance')) {
      results.acceptance = await acceptanceAttackCase(surfaces, 300);
      log(`acceptance: ${JSON.stringify(results.acceptance)}`);
    }
    if (wants('erasure')) {
      results.erasure = await erasureSearchCase(surfaces);
      log(`erasure: ${JSON.stringify(results.erasure)}`);
    }
    if (wants('streams')) {
      results.streams = await streamFlood({ base, db, servicePid: () => service.process.pid!, seconds: 10, cycles: 4 });
      log(`streams: ${JSON.stringify(results.streams)}`);
    }
  } finally {
    for (const fn of cleanups.reverse()) await fn().catch((e: unknown) => log(`cleanup: ${String(e)}`));
    rmSync(tmp, { recursive: true, force: true });
  }
  const out = path.join(root, 'test-results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'reliability.json'), JSON.stringify(results, null, 2));
  console.log(JSON.stringify(results, null, 2));
}

await main();
process.exit(0);
