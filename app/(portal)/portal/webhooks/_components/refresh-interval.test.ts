import { describe, expect, it } from 'vitest';
import { refreshInterval } from './refresh-interval';

const now = Date.parse('2026-11-22T10:00:00Z');
const inSeconds = (s: number) => new Date(now + s * 1000).toISOString();

describe('delivery list refresh', () => {
  it('stops when nothing is pending', () => {
    expect(refreshInterval([], now)).toBe(false);
    expect(refreshInterval([{ status: 'succeeded', nextAttemptAt: null }, { status: 'exhausted', nextAttemptAt: null }], now)).toBe(false);
  });

  it('looks every 2 s while an attempt is due within a minute (or overdue)', () => {
    expect(refreshInterval([{ status: 'pending', nextAttemptAt: inSeconds(30) }], now)).toBe(2_000);
    expect(refreshInterval([{ status: 'pending', nextAttemptAt: inSeconds(-5) }], now)).toBe(2_000);
  });

  it('looks only now and then while the next retry is further away', () => {
    expect(refreshInterval([{ status: 'pending', nextAttemptAt: inSeconds(300) }], now)).toBe(15_000);
  });
});
