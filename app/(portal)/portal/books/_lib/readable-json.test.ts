import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '@/lib/books/demo-book';
import { toReadableJson } from './readable-json';

/** Keys sorted shortest first, as jsonb answers them. */
function likeJsonb(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(likeJsonb);
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  return Object.fromEntries(keys.map((k) => [k, likeJsonb((value as Record<string, unknown>)[k])]));
}

describe('toReadableJson', () => {
  it('puts a book’s keys in reading order without changing its value', () => {
    const text = toReadableJson(likeJsonb(demoBookArtifact));
    expect(JSON.parse(text)).toEqual(demoBookArtifact);
    expect(text.split('\n').slice(1, 4)).toEqual(['  "formatVersion": 1,', '  "currency": "USD",', '  "autonomy": "autonomous",']);
    expect(Object.keys(JSON.parse(text).rules[4])).toEqual(['id', 'label', 'phase', 'when', 'adjustment']);
    expect(Object.keys(JSON.parse(text).offerings[1])).toEqual(['id', 'label', 'basePriceMinor', 'factorIds', 'conditions']);
  });

  it('keeps unknown keys, after the known ones, in their order', () => {
    expect(toReadableJson({ zeta: 1, alpha: 2, currency: 'USD' })).toBe('{\n  "currency": "USD",\n  "zeta": 1,\n  "alpha": 2\n}');
    expect(JSON.parse(toReadableJson({ rules: [{ zeta: 1, id: 'r' }] })).rules[0]).toEqual({ id: 'r', zeta: 1 });
    expect(Object.keys(JSON.parse(toReadableJson({ rules: [{ zeta: 1, id: 'r' }] })).rules[0])).toEqual(['id', 'zeta']);
    expect(toReadableJson([1, null, 'a'])).toBe('[\n  1,\n  null,\n  "a"\n]');
  });
});
