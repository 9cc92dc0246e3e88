import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { EVENT_TYPES, type EventType } from '../../lib/events/event-types';
import { deliverySchema, EVENT_CATALOGUE } from '../../lib/event-catalogue/catalogue';
import { readEvent } from '../../lib/events/store';
import { api } from '../support/api-client';
import { issueFormToken } from '../../lib/leads/form-token';
import { pauseArm } from '../../lib/experiments/pause-arms';
import { createPerson, createTenant, quoteRequest, testContext, testDb } from '../../lib/testing/factories';
import { deliveryEnvelope } from '../../lib/webhooks/envelope';

/** The fields of a value, two levels down: what a receiver's code reads. */
function shapeOf(value: unknown, depth = 2): unknown {
  if (depth === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return Array.isArray(value) ? 'array' : value === null ? 'null-or-value' : typeof value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, shapeOf((value as Record<string, unknown>)[key], depth - 1)]));
}
const keysOf = (value: unknown, depth = 2): unknown => {
  const shape = shapeOf(value, depth);
  // Types are not compared: a field that is null in one event has a value in another.
  return JSON.parse(JSON.stringify(shape, (_, v) => (typeof v === 'string' ? 'field' : v)));
};

describe('the event catalogue', () => {
  it('lists every type with an example delivery', async () => {
    const res = await api('GET', '/v1/event-types');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.body.data.eventTypes.map((e: { type: string }) => e.type)).toEqual([...EVENT_TYPES]);
    for (const e of res.body.data.eventTypes) expect(e.example).toMatchObject({ type: e.type, version: 1 });
  });

  it('gives each type a schema real events of it parse with, and an example with their fields', async () => {
    const tenant = await createTenant();
    const admin = await createPerson(tenant, { permissions: 'all', businessRole: 'owner' });
    const viewer = await createPerson(tenant, { businessRole: 'viewer' });
    const as = { key: admin.token };
    // Make one of every event, the way people and integrations do.
    await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample, factors: { ...demoExample.factors, storeys: null } } });
    await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest(tenant, { factors: { home_size: 'huge' } }) });
    const created = await api('POST', '/v1/api-keys', { ...as, body: { name: 'events', projectId: tenant.projectId, environment: 'live' } });
    const rotated = await api('POST', `/v1/api-keys/${created.body.data.apiKey.id}/rotation`, { ...as, body: { graceMinutes: 0 } });
    await api('POST', `/v1/api-keys/${rotated.body.data.successor.id}/revocation`, as);
    const invited = await api('POST', `/v1/businesses/${tenant.businessId}/members`, { ...as, body: { email: `e-${randomUUID()}@example.test`, role: 'editor' } });
    await api('PATCH', `/v1/businesses/${tenant.businessId}/members/${viewer.membershipId}`, { ...as, body: { role: 'editor' } });
    await api('DELETE', `/v1/businesses/${tenant.businessId}/members/${invited.body.data.member.id}`, as);
    await api('PUT', `/v1/businesses/${tenant.businessId}/branding`, { ...as, body: { displayName: 'Events', logoUrl: null, primaryColor: '#112233', accentColor: '#445566' } });
    const accountQuote = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
      key: tenant.keys.live,
      headers: { 'idempotency-key': randomUUID() },
      body: { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] },
    });
    await api('POST', `/v1/accounts/${tenant.projectId}/quotes/${accountQuote.body.quote_id}/commitment/confirm`, {
      key: tenant.keys.live,
      headers: { 'idempotency-key': randomUUID() },
      body: { external_ref: 'order-1' },
    });
    // A held quote approved, another declined; a customer accepts a hosted-page quote.
    const held = { services: [{ service: 'window_cleaning', selections: { home_size: 'medium', storeys: '4_plus', access: 'easy' } }] };
    for (const decision of ['approved', 'declined'] as const) {
      const quote = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, { key: tenant.keys.live, headers: { 'idempotency-key': randomUUID() }, body: held });
      expect(quote.body.state).toBe('awaiting_approval');
      const review = await api('POST', `/v1/businesses/${tenant.businessId}/account-quotes/${quote.body.quote_id}/review`, {
        ...as,
        body: { decision, reason: decision === 'declined' ? 'Too far away.' : undefined },
      });
      expect(review.status).toBe(200);
    }
    const publicQuote = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    const quoteIntentId = publicQuote.body.data.quoteIntent.id;
    const accepted = await api('POST', `/v1/public_quotes/${quoteIntentId}/acceptance`, {
      body: {
        businessId: tenant.businessId,
        contact: { name: 'Alex Rivera', email: 'alex@example.test', phone: '+1 555 0100' },
        note: 'Gate code 1234',
        preferredDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        consent: true,
        formToken: issueFormToken(quoteIntentId, new Date(Date.now() - 5_000)),
      },
    });
    expect(accepted.status, accepted.text).toBe(201);
    const endpoint = await api('POST', '/v1/webhook-endpoints', { ...as, body: { projectId: tenant.projectId, environment: 'live', url: 'https://hooks.example.test/e' } });
    await api('POST', `/v1/webhook-endpoints/${endpoint.body.data.endpoint.id}/test-events`, as);
    // An experiment started, stopped and concluded on the book's Test publication.
    const variant = await api('POST', `/v1/books/${tenant.bookId}/versions`, { ...as, body: { artifact: demoBookArtifact } });
    const experiment = await api('POST', `/v1/books/${tenant.bookId}/experiments`, {
      ...as,
      body: { environment: 'test', name: 'Events', controlWeight: 50, variants: [{ versionId: variant.body.data.version.id, weight: 50 }] },
    });
    const experimentId = experiment.body.data.experiment.id;
    expect((await api('POST', `/v1/books/${tenant.bookId}/experiments/${experimentId}/start`, as)).status).toBe(200);
    // Its acceptance guardrail pauses the variant (the job's verb, driven directly).
    expect(await pauseArm(testContext(testDb()), { id: experimentId, bookId: tenant.bookId, workspaceId: tenant.workspaceId, projectId: tenant.projectId }, 'variant_1', 'Pause variant_1: its acceptance rate is more than 5 points below the control’s')).toBe(true);
    expect((await api('POST', `/v1/books/${tenant.bookId}/experiments/${experimentId}/stop`, as)).status).toBe(200);
    // …then concluded by promoting its control.
    const promoted = await api('POST', `/v1/books/${tenant.bookId}/experiments/${experimentId}/promote`, { ...as, body: { arm: 'control' } });
    expect(promoted.status, promoted.text).toBe(200);

    const events = await testDb().outboxEvent.findMany({ where: { workspaceId: tenant.workspaceId }, orderBy: { seq: 'asc' } });
    const seen = new Set<EventType>();
    for (const event of events) {
      const type = event.type as EventType;
      // The body its deliveries send: the quote's computation back in place, the envelope around it.
      const stored = await readEvent(testDb(), event.environmentId!, event.id);
      const delivery = deliveryEnvelope(stored!);
      const parsed = deliverySchema(type).safeParse(delivery);
      expect(parsed.error?.issues ?? [], `${type}: the real event parses with its schema`).toEqual([]);
      // Nothing the schema does not name (a schema drops such fields as it parses), nothing defaulted.
      expect(parsed.data, `${type}: the schema names every field of the real event`).toEqual(delivery);
      // api_key.revoked at the end of a rotation's grace says why instead of who: not made here.
      expect(keysOf(event.data), `${type}: the example has the real fields`).toEqual(keysOf(EVENT_CATALOGUE[type].example));
      seen.add(type);
    }
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
  });
});
