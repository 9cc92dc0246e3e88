import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/keys/create-api-key';
import { api } from '../support/api-client';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { idempotencyOf, notKeptOf, openObjectsOf, shownOnceOf } from '../../lib/http/contract';
import { issueFormToken } from '../../lib/leads/form-token';
import { createPerson, createTenant, quoteRequest, testDb, testContext } from '../../lib/testing/factories';
import { createWorld, fixturesOfRegistry, type World } from '../support/route-fixtures';

// Spec 4.4.4: every write takes an Idempotency-Key header. The same key and body replay the first
// answer (`idempotent-replayed: true`); the same key with another request is 409
// idempotency_conflict. Secrets are shown once: a replay answers null for them. Checked over the
// whole route table (app/v1/contracts.ts), so that a new write cannot skip it: the wrapper does it
// by default (lib/http/contract.ts, idempotencyOf), and a contract opts out only with a reason.

const writes = fixturesOfRegistry().filter(({ contract }) => contract.method !== 'GET');
const byWrapper = writes.filter(({ contract }) => idempotencyOf(contract) === 'wrapper');
const byOwnKey = writes.filter(({ contract }) => idempotencyOf(contract) === 'own');

/** Another valid request for the routes that keep their own key: a different service. */
const gutters = { offeringId: 'gutter_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } };
const otherBodies: Record<string, (w: World) => unknown> = {
  'POST /v1/public_quotes': (w) => ({ businessId: w.tenant.businessId, ...gutters }),
  'POST /v1/quotes': (w) => quoteRequest(w.tenant, gutters),
  'POST /v1/businesses/{businessId}/quotes': (w) => ({ bookId: w.tenant.bookId, ...gutters }),
  'POST /v1/accounts/{id}/quotes': () => ({ services: [{ service: gutters.offeringId, selections: gutters.factors }] }),
};

/** `value` with null at a dotted path (where there is one). */
function nullAt(value: unknown, [field, ...rest]: string[]): unknown {
  if (!value || typeof value !== 'object' || !(field in value)) return value;
  const record = value as Record<string, unknown>;
  return { ...record, [field]: rest.length === 0 ? null : nullAt(record[field], rest) };
}

describe('Idempotency-Key on every write', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  it('is taken by every write of the route table: by the wrapper, or by the route itself; none is exempt without a reason', () => {
    const exempt = writes.filter(({ contract }) => idempotencyOf(contract) === 'none').map(({ contract }) => `${contract.method} ${contract.path}`);
    expect(exempt).toEqual(['POST /v1/books/{bookId}/impact']);
    for (const { contract } of writes) {
      const declared = contract.idempotent as Record<string, string> | undefined;
      if (declared && ('ownKey' in declared || 'exempt' in declared)) expect((declared.ownKey ?? declared.exempt).length).toBeGreaterThan(20);
    }
    // The quote routes keep the key with the quote they make.
    expect(byOwnKey.map(({ contract }) => contract.path).sort()).toEqual(Object.keys(otherBodies).map((k) => k.split(' ')[1]).sort());
    // The writes issue 39 found ignoring it.
    expect(byWrapper.map(({ contract }) => `${contract.method} ${contract.path}`)).toEqual(
      expect.arrayContaining([
        'PATCH /v1/businesses/{businessId}/leads/{leadId}',
        'PATCH /v1/workspaces/{workspaceId}',
        'PATCH /v1/webhook-endpoints/{id}',
        'POST /v1/public_quotes/{quoteIntentId}/acceptance',
        'DELETE /v1/webhook-endpoints/{id}',
        'PUT /v1/businesses/{businessId}/branding',
      ]),
    );
  });

  for (const { contract, fixture } of [...byWrapper, ...byOwnKey]) {
    it(`${contract.method} ${contract.path}: replays the first answer for the same key and body`, async () => {
      const key = randomUUID();
      const body = fixture.body?.(world);
      const send = () => api(contract.method, fixture.path(world), { key: fixture.as(world), body, headers: { ...fixture.headers?.(world), 'idempotency-key': key } });
      const first = await send();
      expect(first.status, first.text).toBe(contract.success.status);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await send();
      expect(again.status).toBe(first.status);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
      const shownOnce = shownOnceOf(contract);
      const data = (res: typeof first) => (contract.success.enveloped === false ? res.body : res.body.data);
      if (shownOnce) {
        expect(data(first)[shownOnce]).toEqual(expect.any(String));
        expect(data(again)[shownOnce]).toBeNull();
        expect({ ...data(again), [shownOnce]: null }).toEqual({ ...data(first), [shownOnce]: null });
        // The secret is not stored with the answer.
        const stored = await testDb().idempotentRequest.findFirstOrThrow({ where: { key }, select: { response: true } });
        expect(JSON.stringify(stored.response)).not.toContain(data(first)[shownOnce]);
      } else {
        // Personal data is not kept for replays either: null there, the rest as first answered.
        const notKept = notKeptOf(contract);
        const nulled = (value: unknown) => notKept.reduce((v, path) => nullAt(v, path.split('.')), value);
        expect(data(again)).toEqual(nulled(data(first)));
        if (notKept.length > 0) {
          const stored = await testDb().idempotentRequest.findFirstOrThrow({ where: { key }, select: { response: true } });
          for (const path of notKept) expect(path.split('.').reduce((v: any, f) => v?.[f], stored.response)).toBeNull();
        }
      }
      if (contract.success.enveloped !== false) expect(again.body.requestId).toBe(again.headers.get('x-request-id'));
    });
  }

  // A key already used for another request is refused before the route does anything: here the
  // other request is a harmless one of the same caller (a preview, a simulation), then this route.
  for (const { contract, fixture } of byWrapper.filter(({ contract }) => contract.auth !== 'anonymous')) {
    it(`${contract.method} ${contract.path}: answers 409 idempotency_conflict to a key used for another request`, async () => {
      const key = randomUUID();
      const credential = fixture.as(world)!;
      const primed = credential.startsWith('sk_')
        ? await api('POST', `/v1/accounts/${world.tenant.projectId}/quote-simulations`, {
            key: credential,
            headers: { 'idempotency-key': key },
            body: { services: [{ service: gutters.offeringId, selections: gutters.factors }] },
          })
        : await api('POST', `/v1/books/${world.tenant.bookId}/preview`, { key: credential, headers: { 'idempotency-key': key }, body: { artifact: demoBookArtifact, ...gutters } });
      expect(primed.status, primed.text).toBe(200);
      const res = await api(contract.method, fixture.path(world), {
        key: credential,
        body: fixture.body?.(world),
        headers: { ...fixture.headers?.(world), 'idempotency-key': key },
      });
      expect(res.status, res.text).toBe(409);
      expect(contract.surface === 'account' ? res.body.error : res.body.error).toMatchObject({ code: 'idempotency_conflict' });
    });
  }

  for (const { contract, fixture } of byOwnKey) {
    it(`${contract.method} ${contract.path}: answers 409 idempotency_conflict to the same key with another body`, async () => {
      const key = randomUUID();
      const send = (body: unknown) => api(contract.method, fixture.path(world), { key: fixture.as(world), body, headers: { ...fixture.headers?.(world), 'idempotency-key': key } });
      expect((await send(fixture.body?.(world))).status).toBe(contract.success.status);
      const other = await send(otherBodies[`${contract.method} ${contract.path}`](world));
      expect(other.status, other.text).toBe(409);
      expect(other.body.error.code).toBe('idempotency_conflict');
    });
  }

  it('refuses unknown body fields on every route with a body, naming the field', async () => {
    const refusals: string[] = [];
    for (const { contract, fixture } of writes.filter(({ contract }) => contract.body)) {
      const body = fixture.body?.(world) ?? {};
      // Validation comes before anything is done: the valid body plus one field nobody declared.
      const res = await api(contract.method, fixture.path(world), { key: fixture.as(world), body: { ...(body as object), zzUndeclared: 1 }, headers: fixture.headers?.(world) });
      const named = contract.surface === 'account' ? res.body.error?.param === 'zzUndeclared' : res.body.error?.details?.fields?.zzUndeclared !== undefined;
      if (![400, 422].includes(res.status) || !named) refusals.push(`${contract.method} ${contract.path}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(refusals).toEqual([]);
  });

  it('every body schema refuses unknown fields all the way down, unless its contract says why', () => {
    for (const { contract } of writes) {
      if (contract.body && !contract.openFields) expect(openObjectsOf(contract.body), `${contract.method} ${contract.path}`).toEqual([]);
    }
  });

  it('the writes issue 39 named: the same key with another body is 409, and nothing changes', async () => {
    const key = () => randomUUID();
    const as = world.admin.token;
    const twice = async (path: string, method: string, bodies: [unknown, unknown], credential: string | undefined = as) => {
      const k = key();
      const first = await api(method, path, { key: credential, body: bodies[0], headers: { 'idempotency-key': k } });
      const second = await api(method, path, { key: credential, body: bodies[1], headers: { 'idempotency-key': k } });
      return [first.status, second.status, second.body.error?.code];
    };
    const workspace = `/v1/workspaces/${world.tenant.workspaceId}`;
    expect(await twice(workspace, 'PATCH', [{ requestLogRetentionDays: 30 }, { requestLogRetentionDays: 40 }])).toEqual([200, 409, 'idempotency_conflict']);
    const endpoint = `/v1/webhook-endpoints/${world.endpointId}`;
    expect(await twice(endpoint, 'PATCH', [{ description: 'first' }, { description: 'second' }])).toEqual([200, 409, 'idempotency_conflict']);
    expect((await api('GET', endpoint, { key: as })).body.data.endpoint.description).toBe('first');

    // An anonymous acceptance: the customer's key is theirs on that quote's path.
    const quote = await api('POST', '/v1/public_quotes', { body: { businessId: world.tenant.businessId, ...gutters } });
    const quoteId = quote.body.data.quoteIntent.id;
    const formToken = issueFormToken(quoteId, new Date(Date.now() - 5_000));
    const acceptance = (name: string) => ({ businessId: world.tenant.businessId, contact: { name, email: 'idem.customer@example.test' }, consent: true, formToken });
    const k = key();
    const accept = (body: unknown) => api('POST', `/v1/public_quotes/${quoteId}/acceptance`, { body, headers: { 'idempotency-key': k } });
    const first = await accept(acceptance('Ada'));
    expect(first.status, first.text).toBe(201);
    const replay = await accept(acceptance('Ada'));
    expect([replay.status, replay.headers.get('idempotent-replayed')], replay.text).toEqual([201, 'true']);
    const other = await accept(acceptance('Grace'));
    expect([other.status, other.body.error.code]).toEqual([409, 'idempotency_conflict']);

    // Its lead, moved along.
    const leadId = (await testDb().quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId: quoteId }, select: { id: true } })).id;
    const lead = `/v1/businesses/${world.tenant.businessId}/leads/${leadId}`;
    expect(await twice(lead, 'PATCH', [{ status: 'contacted' }, { status: 'won' }])).toEqual([200, 409, 'idempotency_conflict']);
    expect((await testDb().quoteAcceptance.findUniqueOrThrow({ where: { id: leadId } })).status).toBe('contacted');
  });

  it('refuses unknown fields on PATCH /v1/workspaces/{id} and POST /v1/event-triggers, changing nothing', async () => {
    const workspace = await api('PATCH', `/v1/workspaces/${world.tenant.workspaceId}`, { key: world.admin.token, body: { requestLogRetentionDays: 7, name: 'Renamed' } });
    expect(workspace.status).toBe(400);
    expect(workspace.body.error.details.fields).toEqual({ name: ['is not an allowed field'] });
    const trigger = await api('POST', '/v1/event-triggers', { key: world.keys.test, body: { type: 'book_version.published', bookId: world.tenant.bookId, businessId: world.tenant.businessId } });
    expect(trigger.status).toBe(400);
    expect(trigger.body.error.details.fields).toEqual({ businessId: ['is not an allowed field'] });
  });

  it('answers 409 idempotency_conflict for the same key with another body or on another path', async () => {
    const key = randomUUID();
    const create = (name: string) =>
      api('POST', '/v1/books', {
        key: world.admin.token,
        headers: { 'idempotency-key': key },
        body: { projectId: world.tenant.projectId, key: `conflict-${key.slice(0, 8)}`, name },
      });
    expect((await create('First')).status).toBe(201);
    const other = await create('Second');
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    const elsewhere = await api('POST', `/v1/webhook-endpoints/${world.endpointId}/test-events`, {
      key: world.admin.token,
      headers: { 'idempotency-key': key },
    });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error.code).toBe('idempotency_conflict');
    expect(await testDb().book.count({ where: { projectId: world.tenant.projectId, key: `conflict-${key.slice(0, 8)}` } })).toBe(1);
  });

  it("keeps each person's keys apart, and an account's keys shared by its sibling API keys", async () => {
    const key = randomUUID();
    const someoneElse = await createPerson(world.tenant, { permissions: 'all' });
    const create = (token: string, name: string) =>
      api('POST', '/v1/books', {
        key: token,
        headers: { 'idempotency-key': key },
        body: { projectId: world.tenant.projectId, key: `${name}-${key.slice(0, 8)}`, name },
      });
    expect((await create(world.admin.token, 'mine')).status).toBe(201);
    const theirs = await create(someoneElse.token, 'theirs');
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();

    // Two Live keys of one account: a retry through the sibling replays.
    const sibling = (await createApiKey(testContext(testDb()), { projectId: world.tenant.projectId, environment: 'live', name: 'sibling' })).secret;
    const confirm = (apiKey: string) =>
      api('POST', `/v1/accounts/${world.tenant.projectId}/quotes/${world.accountQuoteId}/commitment/confirm`, {
        key: apiKey,
        headers: { 'idempotency-key': key },
        body: { external_ref: 'suite-order' },
      });
    const first = await confirm(world.keys.live);
    expect(first.status).toBe(200);
    const viaSibling = await confirm(sibling);
    expect(viaSibling.headers.get('idempotent-replayed')).toBe('true');
    expect(viaSibling.body).toEqual(first.body);
  });

  it('creates one resource when the same key arrives many times at once', async () => {
    const key = randomUUID();
    const body = { projectId: world.tenant.projectId, key: `race-${key.slice(0, 8)}`, name: 'Race' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api('POST', '/v1/books', { key: world.admin.token, headers: { 'idempotency-key': key }, body })),
    );
    // The first creates; the others replay it, or are told it is still running (409 conflict, retry-after).
    for (const res of answers) {
      expect([201, 409]).toContain(res.status);
      if (res.status === 409) {
        expect(res.body.error.code).toBe('conflict');
        expect(res.headers.get('retry-after')).toBe('1');
      }
    }
    expect(answers.filter((res) => res.status === 201 && res.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await testDb().book.count({ where: { projectId: world.tenant.projectId, key: body.key } })).toBe(1);
  });

  it('lets a corrected retry run when the first write failed, and takes over a claim whose process died', async () => {
    const key = randomUUID();
    const taken = `taken-${key.slice(0, 8)}`;
    await api('POST', '/v1/books', { key: world.admin.token, body: { projectId: world.tenant.projectId, key: taken, name: 'Taken' } });
    const send = (bookKey: string) =>
      api('POST', '/v1/books', {
        key: world.admin.token,
        headers: { 'idempotency-key': key },
        body: { projectId: world.tenant.projectId, key: bookKey, name: 'Retry' },
      });
    const failed = await send(taken);
    expect(failed.status).toBe(409);
    expect(failed.body.error.code).toBe('conflict');
    expect((await send(`fixed-${key.slice(0, 8)}`)).status).toBe(201);

    // A claim left running by a process that died (its lease is over) is taken over by a retry.
    const abandoned = randomUUID();
    const body = { projectId: world.tenant.projectId, key: `abandoned-${abandoned.slice(0, 8)}`, name: 'Abandoned' };
    const first = await api('POST', '/v1/books', { key: world.admin.token, headers: { 'idempotency-key': abandoned }, body });
    await testDb().book.delete({ where: { id: first.body.data.book.id } });
    await testDb().idempotentRequest.updateMany({
      where: { key: abandoned },
      data: { responseStatus: null, lockedUntil: new Date(Date.now() - 1000) },
    });
    const retried = await api('POST', '/v1/books', { key: world.admin.token, headers: { 'idempotency-key': abandoned }, body });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets an answer after 24 hours: the key may then name a new request', async () => {
    const key = randomUUID();
    const send = (name: string) =>
      api('POST', '/v1/books', {
        key: world.admin.token,
        headers: { 'idempotency-key': key },
        body: { projectId: world.tenant.projectId, key: `${name}-${key.slice(0, 8)}`, name },
      });
    expect((await send('day-one')).status).toBe(201);
    await testDb().idempotentRequest.updateMany({ where: { key }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    const later = await send('day-two');
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key before doing anything', async () => {
    const res = await api('POST', '/v1/books', {
      key: world.admin.token,
      headers: { 'idempotency-key': 'k'.repeat(201) },
      body: { projectId: world.tenant.projectId, key: `long-${randomUUID().slice(0, 8)}`, name: 'Long' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields['idempotency-key']).toEqual(['must be 1 to 200 characters']);
  });

  it('takes the quote routes’ key as a header too, the same as the body field', async () => {
    const tenant = await createTenant();
    const key = `order-${randomUUID()}`;
    const body = { businessId: tenant.businessId, bookId: tenant.bookId, offeringId: 'gutter_cleaning', factors: { home_size: 'small', storeys: '2', access: 'easy' } };
    const first = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'idempotency-key': key }, body });
    expect(first.status).toBe(201);
    expect(first.body.data.quoteIntent.idempotencyKey).toBe(key);
    const replay = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: { ...body, idempotencyKey: key } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.quoteIntent.id).toBe(first.body.data.quoteIntent.id);
    const disagree = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'idempotency-key': key }, body: { ...body, idempotencyKey: `${key}-x` } });
    expect(disagree.status).toBe(422);
    expect(Object.keys(disagree.body.error.details.fields)).toEqual(['idempotencyKey']);
  });
});
