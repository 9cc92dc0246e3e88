import { describe, expect, it } from 'vitest';
import { asOf } from './expire-quote-intents';
import { priceValidUntil } from './validity';

describe('how long a price holds', () => {
  const made = new Date('2031-01-31T12:00:00Z');

  it('adds whole days, and never expires at 0', () => {
    expect(priceValidUntil(made, 30)?.toISOString()).toBe('2031-03-02T12:00:00.000Z');
    expect(priceValidUntil(made, 1)?.toISOString()).toBe('2031-02-01T12:00:00.000Z');
    expect(priceValidUntil(made, 0)).toBeNull();
  });

  it('reads a priced or waiting intent as expired from its expiresAt on, and nothing else', () => {
    const at = new Date('2031-02-01T00:00:00Z');
    const before = new Date(at.getTime() - 1);
    for (const status of ['succeeded', 'requires_input']) {
      expect(asOf({ status, expiresAt: at }, before).status).toBe(status);
      expect(asOf({ status, expiresAt: at }, at).status).toBe('expired');
      expect(asOf({ status, expiresAt: null }, new Date('2099-01-01')).status).toBe(status);
    }
    expect(asOf({ status: 'failed', expiresAt: at }, new Date('2099-01-01')).status).toBe('failed');
  });
});
