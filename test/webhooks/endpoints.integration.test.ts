import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api-client';
import { quoteRequest, createPerson, createTenant, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { withEnv } from '../support/settings';

describe('webhook endpoint and delivery routes (workspace session)', () => {
  let tenant: Tenant;
  let admin: Person;
  const create = (body: Record<string, unknown>, token = admin.token) =>
    api('POST', '/v1/webhook-endpoints', { key: token, body: { projectId: tenant.projectId, environment: 'live', ...body } });

  beforeAll(async () => {
    tenant = await createTenant();
    admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
  });

  it('creates an endpoint with a whsec_ secret shown once, stored encrypted', async () => {
    const res = await create({ url: 'https://hooks.example.com/quotes', eventTypes: ['quote_intent.succeeded'], description: 'CRM' });
    expect(res.status).toBe(201);
    const { endpoint, secret } = res.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toMatchObject({
      environment: 'live',
      url: 'https://hooks.example.com/quotes',
      eventTypes: ['quote_intent.succeeded'],
      status: 'enabled',
      secretPrefix: secret.slice(0, 10),
      secretLast4: secret.slice(-4),
    });
    const stored = await testDb().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(JSON.stringify(stored)).not.toContain(secret);
    const shown = await api('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: admin.token });
    expect(shown.text).not.toContain(secret);
    const listed = await api('GET', `/v1/webhook-endpoints?projectId=${tenant.projectId}`, { key: admin.token });
    expect(listed.body.data.endpoints.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect(listed.text).not.toContain(secret);
  });

  it("writes a quote's event with its deliveries: every enabled endpoint of the environment whose filter takes it", async () => {
    const own = await createTenant();
    const owner = await createPerson(own, { permissions: ['webhooks:manage'] });
    const endpoint = (body: Record<string, unknown>) =>
      api('POST', '/v1/webhook-endpoints', { key: owner.token, body: { projectId: own.projectId, url: 'https://hooks.example.com/x', ...body } });
    const all = (await endpoint({ environment: 'test' })).body.data.endpoint;
    const succeeded = (await endpoint({ environment: 'test', eventTypes: ['quote_intent.succeeded'] })).body.data.endpoint;
    const failedOnly = (await endpoint({ environment: 'test', eventTypes: ['quote_intent.failed'] })).body.data.endpoint;
    const live = (await endpoint({ environment: 'live' })).body.data.endpoint;
    const disabled = (await endpoint({ environment: 'test' })).body.data.endpoint;
    await api('PATCH', `/v1/webhook-endpoints/${disabled.id}`, { key: owner.token, body: { status: 'disabled' } });

    // This server runs no job runner: whatever exists now was written with the quote.
    const res = await api('POST', '/v1/quotes', { key: own.keys.test, body: quoteRequest(own) });
    expect(res.status).toBe(201);
    const event = await testDb().outboxEvent.findFirstOrThrow({ where: { subjectId: res.body.data.quoteIntent.id } });
    expect(event.dispatchedAt).toEqual(event.createdAt);
    const deliveries = await testDb().webhookDelivery.findMany({ where: { eventId: event.id } });
    expect(deliveries.map((d) => d.endpointId).sort()).toEqual([all.id, succeeded.id].sort());
    expect(deliveries.every((d) => d.status === 'pending' && d.eventType === 'quote_intent.succeeded')).toBe(true);
    for (const other of [failedOnly, live, disabled]) expect(deliveries.map((d) => d.endpointId)).not.toContain(other.id);
  });

  it('refuses URLs that are not plain https, and unknown event types', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'http://hooks.example.com' }, 'url'],
      [{ url: 'https://user:pass@hooks.example.com' }, 'url'],
      [{ url: 'https://hooks.example.com/#top' }, 'url'],
      [{ url: 'hooks.example.com' }, 'url'],
      [{ url: 'https://hooks.example.com', eventTypes: ['quote.paid'] }, 'eventTypes.0'],
      [{ url: 'https://hooks.example.com', environment: 'staging' }, 'environment'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.fields[field]).toBeDefined();
    }
  });

  it('updates, disables, rotates and deletes; a deleted endpoint is gone', async () => {
    const { endpoint, secret } = (await create({ url: 'https://hooks.example.com/a' })).body.data;
    const patched = await api('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, {
      key: admin.token,
      body: { url: 'https://hooks.example.com/b', status: 'disabled', eventTypes: [] },
    });
    expect(patched.body.data.endpoint).toMatchObject({ url: 'https://hooks.example.com/b', status: 'disabled', eventTypes: [] });
    const rotated = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/secret-rotation`, { key: admin.token, body: { overlapMinutes: 30 } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(secret);
    expect(new Date(rotated.body.data.endpoint.previousSecretExpiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    const immediate = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/secret-rotation`, { key: admin.token, body: { overlapMinutes: 0 } });
    expect(immediate.body.data.endpoint.previousSecretExpiresAt).toBeNull();
    const deleted = await api('DELETE', `/v1/webhook-endpoints/${endpoint.id}`, { key: admin.token });
    expect(deleted.status).toBe(200);
    expect((await api('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: admin.token })).status).toBe(404);
  });

  it('queues a test event to one endpoint, lists deliveries and replays them', async () => {
    const { endpoint } = (await create({ url: 'https://hooks.example.com/test-target' })).body.data;
    const other = (await create({ url: 'https://hooks.example.com/other' })).body.data.endpoint;
    const queued = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test-events`, { key: admin.token });
    expect(queued.status).toBe(201);
    expect(queued.body.data.delivery).toMatchObject({ endpointId: endpoint.id, eventType: 'webhook.test', status: 'pending', attemptCount: 0 });
    const forOther = await api('GET', `/v1/webhook-deliveries?endpointId=${other.id}`, { key: admin.token });
    expect(forOther.body.data.deliveries).toEqual([]);

    const replay = await api('POST', `/v1/webhook-deliveries/${queued.body.data.delivery.id}/replay`, { key: admin.token });
    expect(replay.status).toBe(201);
    expect(replay.body.data.delivery).toMatchObject({ replayOfId: queued.body.data.delivery.id, eventId: queued.body.data.delivery.eventId });
    const list = await api('GET', `/v1/webhook-deliveries?endpointId=${endpoint.id}&limit=1`, { key: admin.token });
    expect(list.body.data.deliveries).toHaveLength(1);
    expect(list.body.data.deliveries[0].id).toBe(replay.body.data.delivery.id);
    const next = await api('GET', `/v1/webhook-deliveries?endpointId=${endpoint.id}&limit=1&cursor=${encodeURIComponent(list.body.data.nextCursor)}`, {
      key: admin.token,
    });
    expect(next.body.data.deliveries[0].id).toBe(queued.body.data.delivery.id);
    expect(next.body.data.nextCursor).toBeNull();
    const one = await api('GET', `/v1/webhook-deliveries/${queued.body.data.delivery.id}`, { key: admin.token });
    expect(one.body.data.delivery.attempts).toEqual([]);
  });

  it('lists only failing deliveries on asking: retrying after a failed attempt, or given up; not waiting, arrived or canceled', async () => {
    const endpoint = (await create({ url: 'https://hooks.example.com/failing' })).body.data.endpoint;
    for (let i = 0; i < 5; i++) expect((await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test-events`, { key: admin.token })).status).toBe(201);
    const ids = (await testDb().webhookDelivery.findMany({ where: { endpointId: endpoint.id }, orderBy: { createdAt: 'asc' }, select: { id: true } })).map((d) => d.id);
    const [, retrying, exhausted, succeeded, canceled] = ids; // the first stays pending, not yet attempted
    await testDb().webhookDelivery.update({ where: { id: retrying }, data: { attemptCount: 1 } });
    await testDb().webhookDelivery.update({ where: { id: exhausted }, data: { status: 'exhausted', attemptCount: 5, nextAttemptAt: null } });
    await testDb().webhookDelivery.update({ where: { id: succeeded }, data: { status: 'succeeded', attemptCount: 2, nextAttemptAt: null } });
    await testDb().webhookDelivery.update({ where: { id: canceled }, data: { status: 'canceled', attemptCount: 1, nextAttemptAt: null } });
    const listed = async (query: string) => {
      const res = await api('GET', `/v1/webhook-deliveries?endpointId=${endpoint.id}${query}`, { key: admin.token });
      expect(res.status).toBe(200);
      return res.body.data.deliveries.map((d: { id: string }) => d.id).sort();
    };
    expect(await listed('&failing=true')).toEqual([retrying, exhausted].sort());
    expect(await listed('&failing=true&status=exhausted')).toEqual([exhausted]);
    expect(await listed('&failing=false')).toEqual([...ids].sort());
    expect((await api('GET', '/v1/webhook-deliveries?failing=maybe', { key: admin.token })).status).toBe(400);
  });

  it('needs webhooks:manage, and hides other workspaces’ endpoints', async () => {
    const { endpoint } = (await create({ url: 'https://hooks.example.com/private' })).body.data;
    const reader = await createPerson(tenant, { permissions: ['logs:read'] });
    expect((await create({ url: 'https://hooks.example.com/x' }, reader.token)).status).toBe(403);
    expect((await api('POST', '/v1/webhook-endpoints', { body: { url: 'https://x.example' } })).status).toBe(401);
    const outsider = await createPerson(await createTenant(), { permissions: 'all' });
    expect((await api('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: outsider.token })).status).toBe(404);
    expect((await api('POST', `/v1/webhook-endpoints/${endpoint.id}/test-events`, { key: outsider.token })).status).toBe(404);
    expect((await api('GET', '/v1/webhook-deliveries', { key: outsider.token })).body.data.deliveries).toEqual([]);
  });
});

describe('endpoint URLs that delivery would refuse', () => {
  let tenant: Tenant;
  let admin: Person;
  const create = (url: string) => api('POST', '/v1/webhook-endpoints', { key: admin.token, body: { projectId: tenant.projectId, environment: 'live', url } });
  const patch = (id: string, url: string) => api('PATCH', `/v1/webhook-endpoints/${id}`, { key: admin.token, body: { url } });
  /** Runs `fn` on a deployment that allows private targets, or not (the settings are read again). */
  async function deployment<T>(allowPrivate: boolean, fn: () => Promise<T>): Promise<T> {
    return withEnv({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: String(allowPrivate), EMBEDDED_DATABASE: undefined }, fn);
  }
  const NEVER = ['https://169.254.169.254/latest/meta-data', 'https://[::ffff:169.254.169.254]/', 'https://0.0.0.0/', 'https://[::]/', 'https://224.0.0.1/', 'https://[ff02::1]/', 'https://metadata.google.internal/'];
  const PRIVATE = ['https://127.0.0.1/hooks', 'https://[::1]/', 'https://[::ffff:127.0.0.1]/', 'https://0x7f000001/', 'https://10.0.0.5/', 'https://192.168.1.20/', 'https://[fd00::1]/', 'https://localhost:8443/'];
  const NO_HOST = ['https:///nohost', 'https:nohost'];

  beforeAll(async () => {
    tenant = await createTenant();
    admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
  });

  it('refuses them at creation and on change with 422 webhook_target_refused, naming the field; the endpoint keeps its URL', async () => {
    await deployment(false, async () => {
      const { endpoint } = (await create('https://hooks.example.com/kept')).body.data;
      for (const url of [...NEVER, ...PRIVATE, ...NO_HOST]) {
        for (const res of [await create(url), await patch(endpoint.id, url)]) {
          expect(res.status, url).toBe(422);
          expect(res.body.error.code).toBe('webhook_target_refused');
          expect(res.body.error.message).toContain(url);
          expect(res.body.error.details.fields.url).toHaveLength(1);
          expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
        }
      }
      expect((await api('GET', `/v1/webhook-endpoints/${endpoint.id}`, { key: admin.token })).body.data.endpoint).toMatchObject({
        url: 'https://hooks.example.com/kept',
        targetNote: null,
      });
      expect(await testDb().webhookEndpoint.count({ where: { projectId: tenant.projectId } })).toBe(1);
    });
  });

  it('where private targets are allowed, takes private ones and says so in the answer; never the others', async () => {
    await deployment(true, async () => {
      for (const url of PRIVATE) {
        const res = await create(url);
        expect(res.status, url).toBe(201);
        expect(res.body.data.endpoint.targetNote, url).toMatch(/this deployment allows private targets/);
      }
      const { endpoint } = (await create('https://hooks.example.com/public')).body.data;
      expect(endpoint.targetNote).toBeNull();
      const moved = await patch(endpoint.id, 'https://192.168.1.20/hooks');
      expect(moved.status).toBe(200);
      expect(moved.body.data.endpoint.targetNote).toMatch(/192\.168\.1\.20 is a private-network address: this deployment allows private targets/);
      for (const url of [...NEVER, ...NO_HOST]) {
        expect((await create(url)).status, url).toBe(422);
        expect((await patch(endpoint.id, url)).status, url).toBe(422);
      }
    });
    // The same endpoint on a deployment that refuses private targets: its answer says deliveries are refused.
    await deployment(false, async () => {
      const listed = await api('GET', `/v1/webhook-endpoints?projectId=${tenant.projectId}`, { key: admin.token });
      const loopback = listed.body.data.endpoints.find((e: { url: string }) => e.url === 'https://127.0.0.1/hooks');
      expect(loopback.targetNote).toMatch(/^Deliveries to this URL are refused: 127\.0\.0\.1 is a loopback address/);
    });
  });
});
