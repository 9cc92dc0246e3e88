import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAccountQuote } from '../../lib/accounts/create-account-quote';
import { reviewAccountQuote } from '../../lib/accounts/review-account-quote';
import type { ApiKeyPrincipal } from '../../lib/auth/principal';
import { businessAccess } from '../../lib/auth/permissions';
import { runWebhookJobs } from '../../lib/jobs/run-jobs';
import { acceptQuote } from '../../lib/leads/accept-quote';
import { issueFormToken } from '../../lib/leads/form-token';
import { createPublicQuote } from '../../lib/quotes/create-public-quote';
import { eventually } from '../../lib/testing/eventually';
import { createPerson, testContext } from '../../lib/testing/factories';
import { signedBy, startReceiver } from '../../lib/testing/https-receiver';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { webhookTestbed } from '../support/webhook-testbed';

/**
 * The events of the way from a price to a commitment reach the business's Live endpoints signed
 * like every other: a held quote approved, another declined, a hosted-page quote accepted.
 */
const T0 = new Date('2031-03-01T09:00:00Z');
const bed = webhookTestbed(T0, { settled: true });

describe('review and acceptance events as webhooks', () => {
  it('delivers account_quote.approved, account_quote.declined and quote_intent.accepted, each verified with the endpoint secret', async () => {
    const receiver = await startReceiver();
    bed.receivers.push(receiver);
    const types = ['account_quote.approved', 'account_quote.declined', 'quote_intent.accepted'];
    const { secret } = await createEndpoint(bed.asAdmin(), { projectId: bed.tenant.projectId, environment: 'live', url: receiver.url, eventTypes: types });

    const key: ApiKeyPrincipal = {
      kind: 'api_key',
      keyId: bed.tenant.keyIds.live,
      workspaceId: bed.tenant.workspaceId,
      projectId: bed.tenant.projectId,
      environmentId: bed.tenant.environments.live,
      environment: 'live',
      scopes: ['quotes:write'],
    };
    const held = { services: [{ service: 'window_cleaning', selections: { home_size: 'medium', storeys: '4_plus', access: 'easy' } }], context: {} };
    const owner = await createPerson(bed.tenant, { businessRole: 'owner' }, bed.db);
    const access = (await businessAccess(bed.db, owner.principal, bed.tenant.businessId))!;
    const asOwner = testContext(bed.db, { now: bed.at(60_000), principal: owner.principal });
    for (const decision of ['approved', 'declined'] as const) {
      const { quote } = await createAccountQuote(testContext(bed.db, { now: T0, principal: key }), { idempotencyKey: randomUUID(), request: held });
      await reviewAccountQuote(asOwner, { access, environment: 'live', quoteId: quote.quote_id, decision, reason: decision === 'declined' ? 'Out of area' : null });
    }
    const { result } = await createPublicQuote(
      { ...testContext(bed.db, { now: T0 }), startedAt: performance.now() },
      { businessId: bed.tenant.businessId, offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } },
    );
    const quoteIntentId = result.quoteIntent.id;
    await acceptQuote(testContext(bed.db, { now: bed.at(90_000) }), {
      quoteIntentId,
      request: {
        businessId: bed.tenant.businessId,
        contact: { name: 'Robin Ames', email: 'robin@example.test' },
        consent: true,
        formToken: issueFormToken(quoteIntentId, bed.at(60_000)),
      },
    });

    await runWebhookJobs(bed.system(bed.at(120_000)));
    await eventually(() => (receiver.received.length >= 3 ? receiver.received : null), 10_000, 50);
    expect(receiver.received).toHaveLength(3);
    for (const delivery of receiver.received) expect(signedBy(delivery, secret)).toBe(true);
    const envelopes = receiver.received.map((r) => JSON.parse(r.rawBody));
    expect(envelopes.map((e) => e.type)).toEqual(types);
    expect(envelopes.every((e) => e.businessId === bed.tenant.businessId)).toBe(true);
    expect(envelopes[0].data).toMatchObject({ state: 'quoted', review: { decision: 'approved', reviewed_by: owner.userId } });
    expect(envelopes[1].data).toMatchObject({ state: 'awaiting_approval', review: { decision: 'declined', reason: 'Out of area' } });
    expect(envelopes[2].data.acceptance).toMatchObject({
      quoteIntentId,
      receiptId: result.quoteReceipt.id,
      receiptSignature: result.quoteReceipt.signature!.value,
      contact: { name: 'Robin Ames', email: 'robin@example.test', phone: null },
    });
  });
});
