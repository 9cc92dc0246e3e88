import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient, isQuotePricingError, type ErrorCode, type ParamsOf, type WebhookEvent } from '../../sdk/src/index';

// The SDK's types, checked by `npm run typecheck` (each `@ts-expect-error` fails the check when its
// line stops being an error): requests typed from the input side of the contracts, resources from
// the generated table, errors and webhook events as unions. The runtime asserts are a sanity net.
const qps = createClient({ baseUrl: 'http://localhost:1', apiKey: 'sk_test_x', maxRetries: 0 });
const ids = { businessId: '00000000-0000-4000-8000-000000000001', bookId: '00000000-0000-4000-8000-000000000002' };

async function typed() {
  // A field with a default (`factors`, `context`, `graceMinutes`) is not demanded.
  await qps.quotes.create({ ...ids, offeringId: 'window_cleaning' });
  await qps.accounts('acct').quotes.simulate({ services: [] });
  await qps.apiKeys.rotate('key', {});
  // @ts-expect-error: a field the API does not take
  await qps.quotes.create({ ...ids, offeringId: 'window_cleaning', colour: 'red' });
  // @ts-expect-error: a field the API demands
  await qps.quotes.create({ ...ids });
  // @ts-expect-error: path parameters are positional
  await qps.webhookEndpoints.retrieve();
  const endpoint = await qps.webhookEndpoints.retrieve('we_1', { signal: AbortSignal.timeout(1000) });
  expectTypeOf(endpoint.endpoint.id).toEqualTypeOf<string>();
  for await (const delivery of qps.webhookDeliveries.list({ limit: 20 })) expectTypeOf(delivery.id).toEqualTypeOf<string>();
  const firstPage = await qps.businesses('b').members.list();
  expectTypeOf(firstPage).not.toBeAny();
  try {
    await qps.quotes.create({ ...ids, offeringId: 'x' }, { idempotencyKey: 'order-1234' });
  } catch (err) {
    if (isQuotePricingError(err, 'createQuote')) {
      expectTypeOf(err.code).toExtend<ErrorCode>();
      // @ts-expect-error: not a code createQuote answers
      err.code === 'member_not_found';
    }
  }
}

// The union is the OpenAPI document's `webhooks`, whose schemas are the event catalogue's: each
// type's `data` as precise as the API's own types (enums, nullable fields, records), not an example's shape.
function narrowed(event: WebhookEvent) {
  switch (event.type) {
    case 'api_key.rotated':
      return event.data.graceMinutes satisfies number;
    case 'api_key.revoked':
      expectTypeOf(event.data.reason).toEqualTypeOf<'revoked' | 'rotated_without_grace' | 'rotation_grace_ended'>();
      expectTypeOf(event.data.apiKey.status).toEqualTypeOf<'active' | 'rotating' | 'revoked'>();
      // Who did it, when someone did: a person, or the Test key that triggered it.
      if ('revokedBy' in event.data) expectTypeOf(event.data.revokedBy).toEqualTypeOf<string>();
      else if ('triggeredBy' in event.data) expectTypeOf(event.data.triggeredBy.apiKeyId).toEqualTypeOf<string>();
      else expectTypeOf(event.data.reason).toEqualTypeOf<'rotation_grace_ended'>();
      return event.data.apiKey.revokedAt;
    case 'quote_intent.succeeded':
      expectTypeOf(event.data.quoteReceipt.computation.totalMinor).toEqualTypeOf<number>();
      expectTypeOf(event.data.quoteReceipt.outcome).toEqualTypeOf<'succeeded'>();
      // Nullable fields are the value or null, records any key: not an example's shape.
      expectTypeOf(event.data.quoteIntent.expiresAt).toEqualTypeOf<string | null>();
      expectTypeOf(event.data.quoteIntent.bookVersionId).toEqualTypeOf<string | null>();
      expectTypeOf(event.data.quoteIntent.inputs.factors['any_factor']).toEqualTypeOf<string | null>();
      expectTypeOf(event.data.quoteReceipt.signature).toEqualTypeOf<{ alg: 'Ed25519'; kid: string; value: string } | null>();
      expectTypeOf(event.businessId).toEqualTypeOf<string>();
      return event.data.quoteReceipt.computation.totalMinor satisfies number;
    case 'quote_intent.failed':
      expectTypeOf(event.data.quoteReceipt.failure.code).toEqualTypeOf<string>();
      // @ts-expect-error: a failed quote has no computation
      return event.data.quoteReceipt.computation.totalMinor;
    case 'account_quote.declined':
      expectTypeOf(event.data.state).toEqualTypeOf<'awaiting_approval'>();
      return event.data.review.reason satisfies string;
    case 'account_quote.approved':
      expectTypeOf(event.data.review.reason).toEqualTypeOf<string | null>();
      return event.data.quote.total.low_cents satisfies number;
    case 'quote_intent.accepted':
      expectTypeOf(event.data.acceptance.contact).toEqualTypeOf<{ email: string | null; name: string; phone: string | null } | null>();
      return event.data.acceptance.erasedAt satisfies string | undefined;
    case 'commitment.confirmed':
      // @ts-expect-error: its envelope names no business
      return event.businessId;
    default:
      // @ts-expect-error: data is narrowed by type, and not every type has it
      return event.data.graceMinutes;
  }
}

describe('the SDK types', () => {
  it('take optional-with-default fields as optional', () => {
    expectTypeOf<ParamsOf<'createQuote'>>().toHaveProperty('factors');
    expect(typeof typed).toBe('function');
    expect(typeof narrowed).toBe('function');
    expect(typeof qps.quotes.create).toBe('function');
    expect(typeof qps.accounts('a').quotes.create).toBe('function');
    expect(typeof qps.accounts.list).toBe('function');
  });
});
