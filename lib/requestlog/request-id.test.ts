import { describe, expect, it } from 'vitest';
import { newRequestId, requestIdTime } from './request-id';

describe('request ids', () => {
  it('carry the millisecond they were made, and are unique and time-ordered', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    const after = Date.now();
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) {
      const at = requestIdTime(id)!.getTime();
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
  });

  it('tell no time for ids of another kind (the v4 ids of older rows)', () => {
    expect(requestIdTime('0b0f7d3e-2c8e-4d7a-9a51-6c2f1c9e8b11')).toBeNull();
    expect(requestIdTime('not-a-uuid')).toBeNull();
  });
});
