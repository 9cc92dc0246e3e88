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
  });

  it('keeps unknown keys, after the known ones, in their order', () => {
    expect(toReadableJson({ zeta: 1, alpha: 2, id: 'x' })).toBe('{\n  "id": "x",\n  "zeta": 1,\n  "alpha": 2\n}');
    expect(toReadableJson([1, null, 'a'])).toBe('[\n  1,\n  null,\n  "a"\n]');
  });
});
