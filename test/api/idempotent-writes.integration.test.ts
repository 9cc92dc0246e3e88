import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/keys/create-api-key';
import { api } from '../../lib/testing/api-client';
import { createPerson, createTenant, testDb, testContext } from '../../lib/testing/factories';
import { createWorld, fixturesOfRegistry, type World } from '../support/route-fixtures';

// Spec 4.4.4: every write that creates something takes an Idempotency-Key header. The same key
// and body replay the first answer (`idempotent-replayed: true`); the same key with another
// request is 409 idempotency_conflict. Secrets are shown once: a replay answers null for them.

const idempotentRoutes = fixturesOfRegistry().filter(({ contract }) => contract.idempotent);

describe('Idempotency-Key on every creating write', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  });

  it('covers every POST that answers 201 Created, and the other creating writes', () => {
    const creating = fixturesOfRegistry()
      .filter(({ contract }) => contract.method === 'POST' && contract.success.status === 201)
      .filter(({ contract }) => !contract.idempotent)
      .map(({ contract }) => contract.path);
    // The quote routes have their own key (body field or header), stored with the quote itself. An
    // acceptance is keyed by its quote: accepting again answers the first acceptance.
    expect(creating.sort()).toEqual([
      '/v1/accounts/{id}/quotes',
      '/v1/businesses/{businessId}/quotes',
      '/v1/public_quotes',
      '/v1/public_quotes/{quoteIntentId}/acceptance',
      '/v1/quotes',
    ]);
    expect(idempotentRoutes.map(({ contract }) => `${contract.method} ${contract.path}`)).toEqual(
      expect.arrayContaining([
        'POST /v1/api-keys',
        'POST /v1/api-keys/{keyId}/rotation',
        'POST /v1/webhook-endpoints',
        'POST /v1/webhook-endpoints/{id}/secret-rotation',
        'POST /v1/webhook-endpoints/{id}/test-events',
        'POST /v1/webhook-deliveries/{deliveryId}/replay',
        'POST /v1/businesses/{businessId}/members',
        'POST /v1/accounts/{id}/quotes/{quoteId}/commitment/confirm',
        'POST /v1/books',
        'POST /v1/books/{bookId}/versions',
      ]),
    );
  });

  for (const { contract, fixture } of idempotentRoutes) {
    it(`${contract.method} ${contract.path}: replays the first answer for the same key and body, once created`, async () => {
      const key = randomUUID();
      const body = fixture.body?.(world);
      const send = () => api(contract.method, fixture.path(world), { key: fixture.as(world), body, headers: { 'idempotency-key': key } });
      const first = await send();
      expect(first.status, first.text).toBe(contract.success.status);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await send();
      expect(again.status).toBe(first.status);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
      const shownOnce = contract.idempotent?.shownOnce;
      const data = (res: typeof first) => (contract.success.enveloped === false ? res.body : res.body.data);
      if (shownOnce) {
        expect(data(first)[shownOnce]).toEqual(expect.any(String));
        expect(data(again)[shownOnce]).toBeNull();
        expect({ ...data(again), [shownOnce]: null }).toEqual({ ...data(first), [shownOnce]: null });
        // The secret is not stored with the answer.
        const stored = await testDb().idempotentRequest.findFirstOrThrow({ where: { key }, select: { response: true } });
        expect(JSON.stringify(stored.response)).not.toContain(data(first)[shownOnce]);
      } else {
        expect(data(again)).toEqual(data(first));
      }
      if (contract.success.enveloped !== false) expect(again.body.requestId).toBe(again.headers.get('x-request-id'));
    });
  }

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
