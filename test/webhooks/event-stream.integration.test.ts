import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiKeyPrincipal } from '../../lib/auth/principal';
import { recordEvent } from '../../lib/events/record-event';
import { createApiKey } from '../../lib/keys/create-api-key';
import { processState } from '../../lib/process/state';
import { STREAM_LIMITS } from '../../lib/ratelimit/registry';
import { createTenant, testContext, testDb, type Tenant } from '../../lib/testing/factories';
import { serviceFetch } from '../support/service-fetch';
import { openEventStream } from '../../lib/webhooks/event-stream';
import { EventStreamHub } from '../../lib/webhooks/event-stream-hub';

/**
 * GET /v1/event-stream: where a stream starts (its own environment's newest event, never a global
 * position), the bounds per key and per workspace counted in PostgreSQL and freed when a stream
 * ends, and one statement per poll for all of a process's streams. Polls and renewals are driven
 * by the test: the process's hub (`processState.eventStreams`) for streams opened through the
 * router, hubs of their own (another process, as far as the slots go) for the rest.
 */

type Message = { event: string; id: string | null; data: string };

/** Reads server-sent events off a stream, one message at a time. */
function sse(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    /** The next message (comments skipped); null once the stream has ended. */
    async next(): Promise<Message | null> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: Message = { event: 'message', id: null, data: '' };
          for (const line of block.split('\n')) {
            const [field, ...rest] = line.split(': ');
            if (field === 'event') message.event = rest.join(': ');
            else if (field === 'id') message.id = rest.join(': ');
            else if (field === 'data') message.data = rest.join(': ');
          }
          if (!block.startsWith(':')) return message;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** What has arrived and not been read yet, without waiting. */
    pending: () => buffer,
    cancel: () => reader.cancel(),
  };
}

const open: { cancel(): Promise<void> }[] = [];
const hubs: EventStreamHub[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.cancel().catch(() => undefined)));
  await Promise.all(hubs.splice(0).map((h) => h.stop()));
});

/** GET /v1/event-stream through the router; a 200's stream is cancelled after the test. */
async function streamOver(key: string, query = '') {
  const res = await serviceFetch(`/v1/event-stream${query}`, { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) return { res, body: (await res.json()) as { error: { code: string; message: string; details?: { fields?: Record<string, string[]> } } } };
  const stream = sse(res.body!);
  open.push(stream);
  return { res, stream };
}

async function readyOf(stream: ReturnType<typeof sse>) {
  const first = await stream.next();
  expect(first?.event).toBe('ready');
  return JSON.parse(first!.data) as { environment: string; after: string | null };
}

/** An event in a tenant's Test environment, as a verb records it. */
function testEvent(tenant: Tenant, n: number): Promise<string> {
  return recordEvent(
    { db: testDb(), now: new Date() },
    { type: 'business.branding_updated', workspaceId: tenant.workspaceId, projectId: tenant.projectId, environmentId: tenant.environments.test, data: { n } },
  );
}

/** One more Test key of the tenant: its secret, and its principal as authentication builds it. */
async function testKey(tenant: Tenant): Promise<{ secret: string; principal: ApiKeyPrincipal }> {
  const made = await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: `listener ${randomUUID().slice(0, 6)}` });
  return {
    secret: made.secret,
    principal: { kind: 'api_key', keyId: made.apiKey.id, workspaceId: tenant.workspaceId, projectId: tenant.projectId, environmentId: tenant.environments.test, environment: 'test', scopes: made.apiKey.scopes },
  };
}

/** A hub of its own: another process's streams and slots, polled and renewed only when the test says. */
function ownHub(maxStreams = 100): EventStreamHub {
  const hub = new EventStreamHub(testDb(), { maxStreams, autoPoll: false });
  hubs.push(hub);
  return hub;
}

async function openOn(hub: EventStreamHub, principal: ApiKeyPrincipal, after: string | null = null) {
  const stream = sse(await openEventStream(testContext(testDb(), { principal }), { after }, hub));
  open.push(stream);
  return stream;
}

const processHub = () => processState.eventStreams!;

describe('where a stream starts', () => {
  it('starts after the newest event of its own environment, and never shows an outbox position', async () => {
    // `quiet` published to Live only: its Test environment has no event yet.
    const [a, b, quiet] = await Promise.all([createTenant(), createTenant(), createTenant({ publishTo: ['live'] })]);
    const aNewest = await testEvent(a, 1);
    await testEvent(b, 1);
    const bNewest = await testEvent(b, 2);

    const streamA = (await streamOver(a.keys.test)).stream!;
    const streamB = (await streamOver(b.keys.test)).stream!;
    const streamQuiet = (await streamOver(quiet.keys.test)).stream!;
    expect(await readyOf(streamA)).toMatchObject({ environment: 'test', after: aNewest });
    // Says which events B's environment holds when it fails (it has, twice, on a loaded machine).
    const eventsOfB = async () =>
      JSON.stringify((await testDb().outboxEvent.findMany({ where: { environmentId: b.environments.test }, orderBy: { seq: 'asc' }, select: { id: true, type: true, seq: true, createdAt: true } })).map((e) => ({ ...e, seq: String(e.seq) })));
    const readyB = await readyOf(streamB);
    if (readyB.after !== bNewest) expect.fail(`B's stream starts after ${readyB.after}, not ${bNewest}; B's events: ${await eventsOfB()}`);
    expect(readyB).toMatchObject({ environment: 'test', after: bNewest });
    expect((await readyOf(streamQuiet)).after).toBeNull();

    // Each stream gets its own environment's next events, named by their ids, and nothing else.
    await testEvent(b, 3);
    const aNext = await testEvent(a, 2);
    await processHub().poll();
    const got = await streamA.next();
    expect(got).toMatchObject({ event: 'event', id: aNext });
    expect(JSON.parse(got!.data)).toMatchObject({ id: aNext, type: 'business.branding_updated', data: { n: 2 } });
    expect(streamA.pending()).toBe('');
    expect((await streamB.next())?.data).toContain('"n":3');
    expect(streamQuiet.pending()).toBe('');
  });

  it('starts from the first event of its environment with `beginning`: a listener that began before there was any misses nothing', async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const foreign = await testEvent(b, 1);
    const first = await testEvent(a, 1);
    const second = await testEvent(a, 2);
    const ofA = (await testDb().outboxEvent.findMany({ where: { environmentId: a.environments.test }, orderBy: { seq: 'asc' }, select: { id: true } })).map((e) => e.id);
    expect(ofA.slice(-2)).toEqual([first, second]);
    for (const via of [{ query: '?after=beginning' }, { query: '', lastEventId: 'beginning' }]) {
      const headers: Record<string, string> = { authorization: `Bearer ${a.keys.test}` };
      if (via.lastEventId) headers['last-event-id'] = via.lastEventId;
      const res = await serviceFetch(`/v1/event-stream${via.query}`, { headers });
      expect(res.status).toBe(200);
      const stream = sse(res.body!);
      open.push(stream);
      expect((await readyOf(stream)).after).toBeNull();
      await processHub().poll();
      // Every event of its environment since the first (the tenant's own making included), in order; none of another's.
      const got: string[] = [];
      while (got.length < ofA.length) got.push((await stream.next())!.id!);
      expect(got).toEqual(ofA);
      expect(got).not.toContain(foreign);
    }
  });

  it('resumes after an event of its environment; another environment’s event or an unknown id reveals nothing', async () => {
    const [a, b] = await Promise.all([createTenant(), createTenant()]);
    const first = await testEvent(a, 1);
    const second = await testEvent(a, 2);
    const foreign = await testEvent(b, 1);

    const resumed = (await streamOver(a.keys.test, `?after=${first}`)).stream!;
    expect((await readyOf(resumed)).after).toBe(first);
    await processHub().poll();
    expect((await resumed.next())?.id).toBe(second);

    const unknownId = randomUUID();
    const ofAnother = await streamOver(a.keys.test, `?after=${foreign}`);
    const unknown = await streamOver(a.keys.test, `?after=${unknownId}`);
    for (const refused of [ofAnother, unknown]) {
      expect(refused.res.status).toBe(400);
      expect(refused.body!.error).toMatchObject({ code: 'invalid_request', details: { fields: { after: ["not an event of this key's environment"] } } });
    }
    // The same answer, but for the id it repeats.
    expect(ofAnother.body!.error.message.replace(foreign, 'ID')).toBe(unknown.body!.error.message.replace(unknownId, 'ID'));

    // Last-Event-ID, as a browser reconnects: the same rule.
    const viaHeader = await serviceFetch('/v1/event-stream', { headers: { authorization: `Bearer ${a.keys.test}`, 'last-event-id': foreign } });
    expect(viaHeader.status).toBe(400);
    expect((await streamOver(a.keys.test, '?after=41')).res.status).toBe(400);
  });
});

describe('streams open at once', () => {
  it(`allows ${STREAM_LIMITS.perKey} per key, then answers 429 with retry-after; a stream that ends frees its place`, async () => {
    const tenant = await createTenant();
    const streams = [];
    for (let i = 0; i < STREAM_LIMITS.perKey; i++) {
      const { res, stream } = await streamOver(tenant.keys.test);
      expect(res.status).toBe(200);
      streams.push(stream!);
    }
    const refused = await streamOver(tenant.keys.test);
    expect(refused.res.status).toBe(429);
    expect(refused.body!.error.code).toBe('rate_limited');
    expect(refused.body!.error.message).toMatch(new RegExp(`^This API key already has ${STREAM_LIMITS.perKey} event streams open, the most one key may hold at once \\(${STREAM_LIMITS.perKey}\\)\\. Close one, or retry after (1 second|\\d+ seconds)\\.$`));
    const retryAfter = Number(refused.res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(refused.res.headers.get('ratelimit-limit')).toBe(String(STREAM_LIMITS.perKey));

    // Another key of the workspace has places of its own.
    const sibling = await testKey(tenant);
    expect((await streamOver(sibling.secret)).res.status).toBe(200);

    // The listener goes away: its place is free once the cancel has settled.
    await streams[0].cancel();
    expect((await streamOver(tenant.keys.test)).res.status).toBe(200);
    expect((await streamOver(tenant.keys.test)).res.status).toBe(429);
  });

  it('holds the bound when a key opens many streams at once', async () => {
    const tenant = await createTenant();
    const answers = await Promise.all(Array.from({ length: 12 }, () => streamOver(tenant.keys.test)));
    expect(answers.filter((a) => a.res.status === 200)).toHaveLength(STREAM_LIMITS.perKey);
    expect(answers.filter((a) => a.res.status === 429)).toHaveLength(12 - STREAM_LIMITS.perKey);
    expect(await testDb().eventStreamLease.count({ where: { apiKeyId: tenant.keyIds.test } })).toBe(STREAM_LIMITS.perKey);
  });

  it(`allows ${STREAM_LIMITS.perWorkspace} per workspace, whichever keys hold them`, async () => {
    const tenant = await createTenant();
    const keys = await Promise.all(Array.from({ length: Math.ceil(STREAM_LIMITS.perWorkspace / STREAM_LIMITS.perKey) + 1 }, () => testKey(tenant)));
    const held = [];
    for (let i = 0; i < STREAM_LIMITS.perWorkspace; i++) {
      const { res, stream } = await streamOver(keys[Math.floor(i / STREAM_LIMITS.perKey)].secret);
      expect(res.status).toBe(200);
      held.push(stream!);
    }
    const fresh = keys.at(-1)!;
    const refused = await streamOver(fresh.secret);
    expect(refused.res.status).toBe(429);
    expect(refused.body!.error.message).toMatch(new RegExp(`^This workspace already has ${STREAM_LIMITS.perWorkspace} event streams open, the most one workspace may hold at once`));
    expect(refused.res.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another workspace is not affected.
    expect((await streamOver((await createTenant()).keys.test)).res.status).toBe(200);

    await held[0].cancel();
    expect((await streamOver(fresh.secret)).res.status).toBe(200);
  });

  it('counts every process’s streams, and a dead process’s places come back once their slots run out', async () => {
    const tenant = await createTenant();
    const key = await testKey(tenant);
    const elsewhere = ownHub();
    const theirs = [];
    for (let i = 0; i < STREAM_LIMITS.perKey; i++) theirs.push(await openOn(elsewhere, key.principal));
    expect((await streamOver(key.secret)).res.status).toBe(429);

    // That process dies: nothing renews its slots, and 30 s later they have run out.
    await testDb().$executeRaw`UPDATE event_stream_leases SET expires_at = now() - interval '1 second' WHERE api_key_id = ${key.principal.keyId}::uuid`;
    expect((await streamOver(key.secret)).res.status).toBe(200);
    // Had it only stalled, its next renewal finds the slots gone and ends those streams.
    await elsewhere.renew();
    for (const stream of theirs) expect(await stream.next()).toMatchObject({ event: 'ready' });
    for (const stream of theirs) expect(await stream.next()).toBeNull();
    expect(elsewhere.size).toBe(0);
  });

  it('ends the streams of a stopping process and frees their places', async () => {
    const tenant = await createTenant();
    const key = await testKey(tenant);
    const stopping = ownHub();
    const theirs = [];
    for (let i = 0; i < STREAM_LIMITS.perKey; i++) theirs.push(await openOn(stopping, key.principal));
    await stopping.stop();
    for (const stream of theirs) {
      await stream.next(); // ready
      expect(await stream.next()).toBeNull();
    }
    for (let i = 0; i < STREAM_LIMITS.perKey; i++) expect((await streamOver(key.secret)).res.status).toBe(200);
  });

  it('ends a stream at the renewal after its key is revoked', async () => {
    const tenant = await createTenant();
    const key = await testKey(tenant);
    const hub = ownHub();
    const stream = await openOn(hub, key.principal);
    await hub.renew();
    expect(hub.size).toBe(1);
    await testDb().apiKey.update({ where: { id: key.principal.keyId }, data: { status: 'revoked', revokedAt: new Date() } });
    await hub.renew();
    await stream.next(); // ready
    expect(await stream.next()).toBeNull();
    expect(await testDb().eventStreamLease.count({ where: { apiKeyId: key.principal.keyId } })).toBe(0);
  });

  it('ends the stream of a listener that leaves 1 MB of events unread, and frees its place', async () => {
    const tenant = await createTenant();
    const key = await testKey(tenant);
    const hub = ownHub();
    const stream = await openOn(hub, key.principal);
    const filler = 'x'.repeat(12_000);
    for (let i = 0; i < 100; i++) {
      await recordEvent(
        { db: testDb(), now: new Date() },
        { type: 'business.branding_updated', workspaceId: tenant.workspaceId, projectId: tenant.projectId, environmentId: tenant.environments.test, data: { filler } },
      );
    }
    await hub.poll();
    expect(hub.size).toBe(0);
    expect(await testDb().eventStreamLease.count({ where: { apiKeyId: key.principal.keyId } })).toBe(0);
    // What was queued still arrives, then the stream ends: the listener reconnects after its last event.
    let events = 0;
    await stream.next(); // ready
    while ((await stream.next())?.event === 'event') events++;
    expect(events).toBeGreaterThan(80);
    expect(events).toBeLessThan(100);
  });

  it('answers 503 when the process holds all the streams it may', async () => {
    const tenant = await createTenant();
    const hub = ownHub(1);
    await openOn(hub, (await testKey(tenant)).principal);
    const full = openEventStream(testContext(testDb(), { principal: (await testKey(tenant)).principal }), { after: null }, hub);
    // …on a connection it closes, so that the retry may reach another process.
    await expect(full).rejects.toMatchObject({ code: 'service_unavailable', headers: { 'retry-after': '1', connection: 'close' } });
    expect(await testDb().eventStreamLease.count({ where: { workspaceId: tenant.workspaceId } })).toBe(1);
  });

  it('frees the place of a HEAD request (its body is never read)', async () => {
    const tenant = await createTenant();
    for (let i = 0; i <= STREAM_LIMITS.perKey; i++) {
      const res = await serviceFetch('/v1/event-stream', { method: 'HEAD', headers: { authorization: `Bearer ${tenant.keys.test}` } });
      expect(res.status).toBe(200);
    }
    expect(await testDb().eventStreamLease.count({ where: { apiKeyId: tenant.keyIds.test } })).toBe(0);
  });
});

describe('one poll for every stream of a process', () => {
  it('reads the events of 30 streams in two environments with one statement, and renews their slots with one', async () => {
    const tenants = await Promise.all([createTenant(), createTenant()]);
    const hub = ownHub();
    const streams: { tenant: Tenant; stream: ReturnType<typeof sse> }[] = [];
    for (const tenant of tenants) {
      for (let k = 0; k < 5; k++) {
        const key = await testKey(tenant);
        for (let i = 0; i < STREAM_LIMITS.perKey; i++) streams.push({ tenant, stream: await openOn(hub, key.principal) });
      }
    }
    for (const { stream } of streams) await readyOf(stream);
    const made = new Map<Tenant, string[]>();
    for (const tenant of tenants) made.set(tenant, [await testEvent(tenant, 1), await testEvent(tenant, 2)]);

    // Every statement this process sends to PostgreSQL while the hub polls (the process's own hub is idle).
    expect(processState.eventStreams?.size ?? 0).toBe(0);
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0];
      sent.push(String(typeof q === 'string' ? q : (q as { text?: string }).text));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await hub.poll();
      expect(sent).toHaveLength(1);
      await hub.renew();
      expect(sent).toHaveLength(2);
    } finally {
      pg.Client.prototype.query = query;
    }
    for (const { tenant, stream } of streams) {
      const ids = [(await stream.next())?.id, (await stream.next())?.id];
      expect(ids).toEqual(made.get(tenant));
    }
  });
});
