import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testDb } from '../../lib/testing/factories';
import { flushRequestLog } from '../support/request-log';
import { serviceFetch } from '../support/service-fetch';
import type { RouteContract } from '../../lib/http/contract';
import { createWorld, fixturesOfRegistry, routeKey, type RouteFixture, type World } from '../support/route-fixtures';
import { mutatedBodies, mutatedQueries, type MutatedBody } from '../support/json-mutations';

// The body fuzzer: per route of the registry, valid bodies (and queries, and path ids) mutated the
// way a careless or hostile client would; every answer must be below 500, in the route's envelope,
// with an x-request-id. `npm run fuzz -- --per-route 10000` runs the same with more cases.

const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 8;
// The account surface counts its quota before it reads a body: a fresh account every so often
// keeps the fuzzer validating instead of meeting 429s.
const ACCOUNT_REQUESTS_PER_WORLD = 550;

type Failure = { route: string; kind: string; input: string; status: number; body: string };
/** Every answer's x-request-id: each must have its request-log row ("every /v1 request leaves one row"). */
const answeredRequestIds: string[] = [];
const answeredWhat = new Map<string, string>();
type Tally = { route: string; requests: number; statuses: Record<string, number>; failures: Failure[] };

async function send(contract: RouteContract, fixture: RouteFixture, world: World, mutated: MutatedBody, target: 'body' | 'query' | 'path') {
  const credential = fixture.as(world);
  const url = target === 'query' ? `${fixture.path(world)}${mutated.text}` : target === 'path' ? mutated.text : fixture.path(world);
  const res = await serviceFetch(url, {
    method: contract.method,
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...fixture.headers?.(world),
      ...(target === 'body' ? { 'content-type': 'application/json' } : {}),
    },
    body: target === 'body' ? mutated.text : undefined,
  });
  // A stream that was opened (the event stream, a query it accepted) does not end: hang up.
  if (/^text\/event-stream/.test(res.headers.get('content-type') ?? '')) {
    await res.body?.cancel();
    return { url: res.url, status: res.status, headers: res.headers, text: '' };
  }
  return { url: res.url, status: res.status, headers: res.headers, text: await res.text() };
}

/** Why an answer is not acceptable, or null: below 500, in the envelope, with its request id. */
function problemOf(answer: { url: string; status: number; headers: Headers; text: string }): string | null {
  if (answer.status >= 500) return `status ${answer.status}`;
  const requestId = answer.headers.get('x-request-id');
  if (!requestId) return 'no x-request-id';
  if (answer.status < 400) return null;
  let body: { error?: Record<string, unknown> };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'error body is not JSON';
  }
  const error = body.error ?? {};
  const account = answer.text.includes('"request_id"');
  if (account) {
    if (!['code', 'message', 'param', 'request_id'].every((f) => typeof error[f] === 'string')) return 'account error fields';
    if (error.request_id !== requestId) return 'request_id differs from x-request-id';
  } else {
    if (typeof error.code !== 'string' || typeof error.message !== 'string') return 'error fields';
    if (error.requestId !== requestId) return 'requestId differs from x-request-id';
  }
  // The path as sent (fetch resolves "..", so a fuzzed account path may have left the surface).
  if (new URL(answer.url).pathname.startsWith('/v1/accounts') !== account) return 'the other surface’s envelope';
  return null;
}

/** Path ids replaced by junk: malformed encodings, NUL, huge and prototype-named segments. */
function mutatedPaths(contract: RouteContract, concrete: string): fc.Arbitrary<MutatedBody> {
  const segments = concrete.split('/');
  const templated = contract.path.split('/').flatMap((s, i) => (s.startsWith('{') ? [i] : []));
  const junk = fc.oneof(
    fc.constantFrom('%00', '%E0%A4%A', '%', '..', '%2e%2e', '__proto__', 'constructor', '%ED%A0%80', 'x'.repeat(5000), '00000000-0000-0000-0000-000000000000'),
    fc.string({ unit: 'grapheme', maxLength: 100 }).map(encodeURIComponent),
  );
  if (templated.length === 0) return junk.map((j) => ({ kind: 'path suffix', text: `${concrete}/${j}` }));
  return fc.tuple(fc.constantFrom(...templated), junk).map(([i, j]) => ({
    kind: 'path id',
    text: segments.map((s, k) => (k === i ? j : s)).join('/'),
  }));
}

async function fuzzRoute(contract: RouteContract, fixture: RouteFixture, worldFor: () => Promise<World>): Promise<Tally> {
  const tally: Tally = { route: routeKey(contract), requests: 0, statuses: {}, failures: [] };
  const seedWorld = await worldFor();
  const plans: { target: 'body' | 'query' | 'path'; inputs: MutatedBody[] }[] = [];
  const share = (n: number) => Math.max(1, Math.round(n));
  if (contract.body) {
    plans.push({ target: 'body', inputs: fc.sample(mutatedBodies(fixture.body?.(seedWorld) ?? {}), { numRuns: share(PER_ROUTE * 0.8), seed: SEED }) });
  }
  if (contract.query) {
    const names = Object.keys((contract.query as unknown as { shape: object }).shape ?? {});
    plans.push({ target: 'query', inputs: fc.sample(mutatedQueries(names), { numRuns: share(PER_ROUTE * (contract.body ? 0.1 : 0.8)), seed: SEED }) });
  }
  const remaining = PER_ROUTE - plans.reduce((n, p) => n + p.inputs.length, 0);
  plans.push({ target: 'path', inputs: fc.sample(mutatedPaths(contract, fixture.path(seedWorld)), { numRuns: share(remaining), seed: SEED }) });
  for (const { target, inputs } of plans) {
    for (let start = 0; start < inputs.length; start += CONCURRENCY) {
      await Promise.all(
        inputs.slice(start, start + CONCURRENCY).map(async (mutated) => {
          const world = await worldFor();
          const answer = await send(contract, fixture, world, mutated, target);
          tally.requests++;
          const requestId = answer.headers.get('x-request-id');
          if (requestId) answeredRequestIds.push(requestId);
          if (requestId) answeredWhat.set(requestId, `${tally.route} ${target} ${answer.status} ${mutated.text.slice(0, 80)}`);
          tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
          const problem = problemOf(answer);
          if (problem) {
            tally.failures.push({ route: tally.route, kind: `${target}: ${mutated.kind}: ${problem}`, input: mutated.text.slice(0, 300), status: answer.status, body: answer.text.slice(0, 300) });
          }
        }),
      );
    }
  }
  return tally;
}

/** The request ids that have no request-log row, once the writer has written what it holds. */
async function requestIdsWithoutRow(requestIds: string[]): Promise<string[]> {
  await flushRequestLog();
  const missing: string[] = [];
  for (let start = 0; start < requestIds.length; start += 5_000) {
    const chunk = requestIds.slice(start, start + 5_000);
    const found = new Set((await testDb().requestLog.findMany({ where: { requestId: { in: chunk } }, select: { requestId: true } })).map((r) => r.requestId));
    missing.push(...chunk.filter((id) => !found.has(id)));
  }
  return missing;
}

describe(`body fuzzer (${PER_ROUTE} cases per route, seed ${SEED})`, () => {
  const tallies: Tally[] = [];
  // One world for every route; the account surface takes a fresh account every so often.
  let shared: Promise<World> | undefined;
  const accountWorlds = new Map<number, Promise<World>>();
  let accountRequests = 0;
  const worldOf = (contract: RouteContract) => (): Promise<World> => {
    if (contract.surface !== 'account') return (shared ??= createWorld());
    const n = Math.floor(accountRequests++ / ACCOUNT_REQUESTS_PER_WORLD);
    if (!accountWorlds.has(n)) accountWorlds.set(n, createWorld());
    return accountWorlds.get(n)!;
  };

  for (const { contract, fixture } of fixturesOfRegistry()) {
    it(`${routeKey(contract)}: no 5xx, every answer in the envelope with x-request-id`, { timeout: 60_000 + PER_ROUTE * 40 }, async () => {
      const tally = await fuzzRoute(contract, fixture, worldOf(contract));
      tallies.push(tally);
      expect(tally.failures.slice(0, 5), `seed ${SEED}`).toEqual([]);
      expect(tally.requests).toBe(PER_ROUTE);
    });
  }

  it('writes the tally (test-results/fuzz-summary.json); every answered request has its log row', { timeout: 120_000 }, async () => {
    const dir = path.resolve(import.meta.dirname, '../../test-results');
    mkdirSync(dir, { recursive: true });
    const total = tallies.reduce((n, t) => n + t.requests, 0);
    const fiveHundreds = tallies.reduce((n, t) => n + Object.entries(t.statuses).filter(([s]) => Number(s) >= 500).reduce((m, [, c]) => m + c, 0), 0);
    const withoutRow = await requestIdsWithoutRow(answeredRequestIds);
    writeFileSync(
      path.join(dir, 'fuzz-summary.json'),
      JSON.stringify({ perRoute: PER_ROUTE, seed: SEED, routes: tallies.length, total, fiveHundreds, answered: answeredRequestIds.length, withoutRow: withoutRow.length, tallies }, null, 2),
    );
    expect(total).toBe(PER_ROUTE * tallies.length);
    expect(answeredRequestIds.length).toBe(total);
    expect(withoutRow.slice(0, 5).map((id) => answeredWhat.get(id))).toEqual([]);
  });
});
