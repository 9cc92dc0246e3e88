import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api-client';
import { createPerson, createTenant, testContext, testDb, type Tenant } from '../../lib/testing/factories';
import { createApiKey } from '../../lib/keys/create-api-key';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';

/**
 * POST /v1/event-triggers: a Test key makes the events no ordinary Test call causes happen for
 * real (`qps trigger`), and the events say which key did it instead of naming a person.
 */
describe('triggered Test events', () => {
  let tenant: Tenant;
  const trigger = (body: Record<string, unknown>, key = tenant.keys.test) => api('POST', '/v1/event-triggers', { key, body });
  const typesOf = (events: { type: string }[]) => events.map((e) => e.type);

  beforeAll(async () => {
    tenant = await createTenant();
  });

  it('api_key.created: a key is made and revoked at once, both events name the triggering key, nothing usable is left', async () => {
    const res = await trigger({ type: 'api_key.created' });
    expect(res.status).toBe(201);
    const events = res.body.data.events;
    expect(typesOf(events)).toEqual(['api_key.created', 'api_key.revoked']);
    const [created, revoked] = events;
    expect(created.data).toMatchObject({ apiKey: { environment: 'test', name: 'Triggered: api_key.created' }, triggeredBy: { apiKeyId: tenant.keyIds.test } });
    expect(created.data).not.toHaveProperty('createdBy');
    expect(revoked.data).toMatchObject({ reason: 'revoked', triggeredBy: { apiKeyId: tenant.keyIds.test } });
    const key = await testDb().apiKey.findUniqueOrThrow({ where: { id: created.data.apiKey.id } });
    expect(key).toMatchObject({ status: 'revoked', environmentId: tenant.environments.test, createdBy: null });
    // The same events are in the outbox, where deliveries and the stream read them.
    const stored = await testDb().outboxEvent.findMany({ where: { subjectId: key.id }, orderBy: { seq: 'asc' } });
    expect(stored.map((e) => e.id)).toEqual(events.map((e: { id: string }) => e.id));
  });

  it('api_key.rotated: the key is rotated without grace and its successor revoked too', async () => {
    const res = await trigger({ type: 'api_key.rotated' });
    expect(res.status).toBe(201);
    const events = res.body.data.events;
    expect(typesOf(events)).toEqual(['api_key.created', 'api_key.rotated', 'api_key.revoked', 'api_key.revoked']);
    const rotated = events[1].data;
    expect(rotated).toMatchObject({ graceMinutes: 0, triggeredBy: { apiKeyId: tenant.keyIds.test } });
    expect(events[2].data).toMatchObject({ reason: 'rotated_without_grace', apiKey: { id: rotated.apiKey.id } });
    expect(events[3].data).toMatchObject({ reason: 'revoked', apiKey: { id: rotated.successor.id } });
    const keys = await testDb().apiKey.findMany({ where: { id: { in: [rotated.apiKey.id, rotated.successor.id] } } });
    expect(keys.map((k) => k.status)).toEqual(['revoked', 'revoked']);
  });

  it('api_key.revoked', async () => {
    const res = await trigger({ type: 'api_key.revoked' });
    expect(typesOf(res.body.data.events)).toEqual(['api_key.created', 'api_key.revoked']);
  });

  it('book_version.published: the book’s Test version is published to Test again; the Live publication is untouched', async () => {
    const publications = () => testDb().publication.findMany({ where: { bookId: tenant.bookId }, orderBy: { environmentId: 'asc' } });
    const before = await publications();
    const res = await trigger({ type: 'book_version.published', bookId: tenant.bookId });
    expect(res.status).toBe(201);
    expect(res.body.data.events).toHaveLength(1);
    expect(res.body.data.events[0]).toMatchObject({ type: 'book_version.published', data: { bookId: tenant.bookId, environment: 'test' } });
    expect((await publications()).map((p) => p.bookVersionId)).toEqual(before.map((p) => p.bookVersionId));
    const records = await testDb().publicationRecord.findMany({ where: { bookId: tenant.bookId, environmentId: tenant.environments.test }, orderBy: { createdAt: 'desc' }, take: 1 });
    expect(records[0]).toMatchObject({ bookVersionId: records[0].previousVersionId, publishedBy: null });

    const noBook = await trigger({ type: 'book_version.published' });
    expect(noBook.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('bookId') });
    const other = await createTenant();
    expect((await trigger({ type: 'book_version.published', bookId: other.bookId })).status).toBe(404);
    const unpublished = await createTenant({ publishTo: ['live'] });
    const refused = await trigger({ type: 'book_version.published', bookId: unpublished.bookId }, unpublished.keys.test);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('no version published to Test');
  });

  it('webhook.test: a test event to an endpoint of the key’s environment only', async () => {
    const admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
    const asAdmin = testContext(testDb(), { principal: admin.principal });
    const { endpoint: testEndpoint } = await createEndpoint(asAdmin, { projectId: tenant.projectId, environment: 'test', url: 'https://receiver.example/hooks' });
    const { endpoint: liveEndpoint } = await createEndpoint(asAdmin, { projectId: tenant.projectId, environment: 'live', url: 'https://receiver.example/hooks' });
    const res = await trigger({ type: 'webhook.test', endpointId: testEndpoint.id });
    expect(res.status).toBe(201);
    expect(res.body.data.events).toEqual([expect.objectContaining({ type: 'webhook.test', data: expect.objectContaining({ endpointId: testEndpoint.id, environment: 'test' }) })]);
    expect(await testDb().webhookDelivery.count({ where: { endpointId: testEndpoint.id, eventId: res.body.data.events[0].id } })).toBe(1);
    expect((await trigger({ type: 'webhook.test', endpointId: liveEndpoint.id })).status).toBe(404);
  });

  it('refuses a Live key, a key without the scope, and a type it cannot trigger', async () => {
    expect((await trigger({ type: 'api_key.created' }, tenant.keys.live)).body.error.code).toBe('insufficient_scope');
    const { secret: liveTrigger } = await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'live', name: 'live trigger', scopes: ['events:trigger'] });
    const live = await trigger({ type: 'api_key.created' }, liveTrigger);
    expect(live.status).toBe(400);
    expect(live.body.error.message).toContain('Test keys only');
    const { secret: noScope } = await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: 'no trigger', scopes: ['quotes:write'] });
    expect((await trigger({ type: 'api_key.created' }, noScope)).status).toBe(403);
    expect((await trigger({ type: 'business_member.invited' })).status).toBe(400);
    // Nothing was made by the refused calls.
    expect(await testDb().apiKey.count({ where: { projectId: tenant.projectId, name: 'Triggered: api_key.created', environmentId: tenant.environments.live } })).toBe(0);
  });
});
