// The cases of `npm run reliability` for the surfaces of issue 39 (docs/reliability.md), against a
// running production server: odd bytes and the request log, the acceptance allowance under
// attack, and a search of every table after an erasure.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { demoExample } from '../../lib/books/demo-book';
import type { Db } from '../../lib/db/client';
import { issueFormToken } from '../../lib/leads/form-token';
import { RATE_LIMITS } from '../../lib/ratelimit/registry';
import { createPerson, createTenant, type Tenant } from '../../lib/testing/factories';
import { tablesHolding } from '../../lib/testing/search-database';

type Context = { base: string; db: { prisma: Db; pool: import('pg').Pool }; log: (message: string) => void };

/** One request on a raw socket, bytes as given (fetch cannot send a NUL or a byte of 0xFF in a header); its status and request id. */
function rawRequest(base: string, request: Buffer): Promise<{ status: number; requestId: string | null }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0];
      resolve({ status: Number(head.split(' ')[1] ?? 0), requestId: /\r\nx-request-id: *([^\r\n]+)/i.exec(head)?.[1] ?? null });
    });
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer in 20 s')));
  });
}

function rawPostBytes(path: string, headers: Record<string, string>, body: Buffer): Buffer {
  const head = [`POST ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', `Content-Length: ${body.length}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

async function inBatches<T>(items: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map((f) => f()))));
  return out;
}

/** Waits until the request log holds as many of the ids as it will (the writer flushes every 50 ms). */
async function rowsOf(db: Context['db'], requestIds: string[]): Promise<Set<string>> {
  let found = new Set<string>();
  for (let tries = 0; tries < 40; tries++) {
    const rows = await db.pool.query<{ request_id: string }>(`SELECT request_id FROM request_logs WHERE request_id = ANY($1::text[])`, [requestIds]);
    const now = new Set(rows.rows.map((r) => r.request_id));
    if (now.size === requestIds.length || (tries > 4 && now.size === found.size)) return now;
    found = now;
    await new Promise((r) => setTimeout(r, 250));
  }
  return found;
}

/**
 * Odd bytes: `requests` requests from two tenants, half ordinary quotes and half with NUL, bytes
 * that are not UTF-8 or lone surrogates in bodies, paths, queries and user agents, 32 at a time.
 * Counts answered requests against request-log rows, and each workspace's rollup against its rows.
 */
export async function oddBytesCase({ base, db, log }: Context, requests: number) {
  const tenants = [await createTenant({}, db.prisma), await createTenant({}, db.prisma)];
  const kinds: ((t: Tenant) => Promise<{ status: number; requestId: string | null }>)[] = [
    (t) => rawPost(base, '/v1/quotes', t, Buffer.from(JSON.stringify({ businessId: t.businessId, bookId: t.bookId, ...demoExample }))),
    (t) => rawPost(base, '/v1/quotes', t, Buffer.from(`{"businessId":"${t.businessId}","offeringId":"x\u0000y"}`)),
    (t) => rawPost(base, '/v1/quotes', t, Buffer.from([0x7b, 0xc0, 0xff, 0xed, 0xa0, 0x80, 0x00, 0x7d])),
    (t) => rawPost(base, '/v1/quotes', t, Buffer.from(JSON.stringify({ businessId: t.businessId, bookId: t.bookId, ...demoExample, offeringId: '\ud800x' }))),
    (t) => rawPost(base, '/v1/public_quotes?x=%00%C0', t, Buffer.from(`{"businessId":"${t.businessId}","offeringId":"x\u0000y"}`), { 'User-Agent': 'caf\u00e9 \u00ff\u00fe' }),
    (t) => rawPost(base, `/v1/accounts/%00${t.projectId}/quotes`, t, Buffer.from('{}'), { 'User-Agent': 'agent \u00c0\u00c1' }),
  ];
  log(`oddbytes: ${requests} requests from 2 tenants, ${kinds.length} kinds (ordinary quotes among them), 32 at a time`);
  const answers = await inBatches(
    Array.from({ length: requests }, (_, i) => () => kinds[i % kinds.length](tenants[Math.floor(i / kinds.length) % 2])),
    32,
  );
  const ids = answers.map((a) => a.requestId).filter((id): id is string => id !== null);
  const rows = await rowsOf(db, ids);
  const rollups = [];
  for (const t of tenants) {
    const [{ rows: logged }, { rows: rolled }] = await Promise.all([
      db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM request_logs WHERE workspace_id = $1`, [t.workspaceId]),
      db.pool.query<{ n: string | null }>(`SELECT sum(requests) AS n FROM request_log_hourly WHERE workspace_id = $1`, [t.workspaceId]),
    ]);
    rollups.push({ rows: Number(logged[0].n), rollup: Number(rolled[0].n ?? 0) });
  }
  const statuses = answers.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});
  return { requests, answeredWithId: ids.length, withoutId: requests - ids.length, rows: rows.size, missing: ids.length - rows.size, statuses, rollupsPerWorkspace: rollups };
}

/** A POST with the tenant's Test key, its body and headers as bytes. */
function rawPost(base: string, path: string, t: Tenant, body: Buffer, headers: Record<string, string> = {}) {
  return rawRequest(base, rawPostBytes(path, { Authorization: `Bearer ${t.keys.test}`, 'Content-Type': 'application/json', ...headers }, body));
}

/**
 * The acceptance allowance under attack: `posts` posts naming business B with a valid form for a
 * quote of A (each 404), and as many repeats of B's accepted quote, then B's genuine customers;
 * then one address trying more new acceptances than its share.
 */
export async function acceptanceAttackCase({ base, db, log }: Context, posts: number) {
  const [a, b] = [await createTenant({}, db.prisma), await createTenant({}, db.prisma)];
  const json = (res: Response) => res.json() as Promise<{ data: { quoteIntent: { id: string } } }>;
  const quoteOf = async (t: Tenant) =>
    (await json(await fetch(`${base}/v1/public_quotes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ businessId: t.businessId, ...demoExample }) }))).data.quoteIntent.id;
  const form = (t: Tenant, quoteId: string, who: string) => ({
    businessId: t.businessId,
    contact: { name: who, email: `${who.toLowerCase().replace(/\W/g, '')}@example.test` },
    consent: true,
    formToken: issueFormToken(quoteId, new Date(Date.now() - 5_000)),
  });
  const accept = (quoteId: string, body: unknown, from: string) =>
    fetch(`${base}/v1/public_quotes/${quoteId}/acceptance`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify(body) }).then((r) => r.status);
  const tally = (statuses: number[]) => statuses.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  log(`acceptance: ${posts} posts naming B for A's quote, ${posts} repeats of B's accepted quote, then B's customers`);
  const quoteOfA = await quoteOf(a);
  const firstOfB = await quoteOf(b);
  const genuine = form(b, firstOfB, 'First Customer');
  const firstAnswer = await accept(firstOfB, genuine, '192.0.2.1');
  const wrongBusiness = await inBatches(Array.from({ length: posts }, (_, i) => () => accept(quoteOfA, form(b, quoteOfA, 'Mallory'), `198.51.100.${i % 250}`)), 16);
  const repeats = await inBatches(Array.from({ length: posts }, () => () => accept(firstOfB, genuine, '192.0.2.1')), 16);
  const customers: number[] = [];
  for (let i = 0; i < 5; i++) {
    const quoteId = await quoteOf(b);
    customers.push(await accept(quoteId, form(b, quoteId, `Customer ${i}`), `192.0.2.${10 + i}`));
  }
  log('acceptance: one address trying more new acceptances than its share');
  const share = RATE_LIMITS.publicAcceptancePerClient.points;
  const oneAddress: number[] = [];
  for (let i = 0; i < share + 5; i++) {
    const quoteId = await quoteOf(b);
    oneAddress.push(await accept(quoteId, form(b, quoteId, `Same Source ${i}`), '203.0.113.50'));
  }
  const otherAddress = await quoteOf(b).then((quoteId) => accept(quoteId, form(b, quoteId, 'Another Source'), '203.0.113.51'));
  return {
    firstAcceptance: firstAnswer,
    postsNamingAnotherBusiness: tally(wrongBusiness),
    repeatsOfAnAcceptedQuote: tally(repeats),
    genuineCustomersAfter: tally(customers),
    oneAddress: { share, statuses: tally(oneAddress) },
    anotherAddressAfter: otherAddress,
  };
}

/**
 * Erasure: a customer's visit through the server (a quote, its page and form, an email typed
 * where it does not belong, a refused and an accepted acceptance), then "Erase personal data",
 * then every table searched for each of their details.
 */
export async function erasureSearchCase({ base, db, log }: Context) {
  const t = await createTenant({}, db.prisma);
  const owner = await createPerson(t, { businessRole: 'owner' }, db.prisma);
  const tag = randomUUID().slice(0, 8);
  const person = { name: `Rowan Vale ${tag}`, email: `rowan-${tag}@example.test`, phone: `+1 555 01${tag.slice(0, 2).replace(/\D/g, '7')}`, note: `Back gate ${tag}`, address: `10.77.${Number.parseInt(tag.slice(0, 2), 16)}.${Number.parseInt(tag.slice(2, 4), 16)}`, browser: `RowanBrowser/${tag}` };
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': person.address, 'user-agent': person.browser };
  const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  log('erasure: a customer’s visit, the erasure, then every table searched');
  await post('/v1/public_quotes', { businessId: t.businessId, ...demoExample, reachMeAt: person.email });
  const quoteId = ((await (await post('/v1/public_quotes', { businessId: t.businessId, ...demoExample })).json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
  await fetch(`${base}/v1/public_quotes/${quoteId}`, { headers });
  await fetch(`${base}/v1/public_quotes/${quoteId}/acceptance`, { headers });
  const body = { businessId: t.businessId, contact: { name: person.name, email: person.email, phone: person.phone }, note: person.note, consent: true, formToken: issueFormToken(quoteId, new Date(Date.now() - 5_000)) };
  await post(`/v1/public_quotes/${quoteId}/acceptance`, { ...body, preferredDate: '2001-01-01' });
  await post(`/v1/public_quotes/${quoteId}/acceptance`, body);
  await new Promise((r) => setTimeout(r, 500)); // the request log's batch
  const before = await tablesHolding(db.prisma, Object.values(person));
  const lead = await db.prisma.quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId: quoteId } });
  const erased = await fetch(`${base}/v1/businesses/${t.businessId}/leads/${lead.id}/erasure`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` } });
  await new Promise((r) => setTimeout(r, 500));
  const after = await tablesHolding(db.prisma, Object.values(person));
  const named = (found: Record<string, string[]>) => Object.fromEntries(Object.entries(person).map(([what, needle]) => [what, found[needle]]));
  return { erasureStatus: erased.status, tablesSearched: after.tables, before: named(before.found), after: named(after.found) };
}
