import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../events/event-types';
import { deliverySchema, EVENT_CATALOGUE, exampleEnvelope } from './catalogue';

describe('the event catalogue', () => {
  it.each(EVENT_TYPES)('%s: its example delivery parses with its schema, nothing dropped', (type) => {
    const example = exampleEnvelope(type);
    const parsed = deliverySchema(type).safeParse(example);
    expect(parsed.error?.issues ?? []).toEqual([]);
    // Schemas drop fields they do not name: the example has none of those.
    expect(parsed.data).toEqual(example);
    expect(EVENT_CATALOGUE[type].data.parse(example.data)).toEqual(example.data);
  });

  it('refuses data without a field its type has, or with one of the wrong type', () => {
    const schema = deliverySchema('quote_intent.succeeded');
    const example = exampleEnvelope('quote_intent.succeeded');
    const { quoteIntent, quoteReceipt } = example.data as { quoteIntent: Record<string, unknown>; quoteReceipt: { computation: Record<string, unknown> } };
    expect(schema.safeParse({ ...example, data: { quoteIntent } }).success).toBe(false);
    expect(schema.safeParse({ ...example, data: { quoteIntent, quoteReceipt: { ...quoteReceipt, computation: { ...quoteReceipt.computation, totalMinor: '17250' } } } }).success).toBe(false);
    // The outcome's own fields: a succeeded quote has its computation.
    expect(schema.safeParse({ ...example, data: { quoteIntent, quoteReceipt: { ...quoteReceipt, computation: null } } }).success).toBe(false);
    expect(schema.safeParse({ ...example, type: 'quote_intent.failed' }).success).toBe(false);
    expect(deliverySchema('webhook.test').safeParse({ ...exampleEnvelope('webhook.test'), businessId: example.businessId }).success).toBe(false);
  });
});
