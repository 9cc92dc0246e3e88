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

function narrowed(event: WebhookEvent) {
  switch (event.type) {
    case 'api_key.rotated':
      return event.data.graceMinutes satisfies number;
    case 'quote_intent.succeeded':
      return event.data.quoteReceipt.computation.totalMinor satisfies number;
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
