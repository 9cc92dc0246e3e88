import { describe, expect, it } from 'vitest';
import { afterTimeIdCursor, timeIdCursorSchema, timeIdPage, timeSequenceCursorSchema } from './cursors';

describe('time cursors', () => {
  it('accept only what a previous page handed out', () => {
    const at = '2026-11-27T10:00:00.123Z';
    expect(timeSequenceCursorSchema.safeParse(`${at}|42`).success).toBe(true);
    expect(timeSequenceCursorSchema.safeParse(`${at}|9223372036854775808`).success).toBe(false);
    expect(timeSequenceCursorSchema.safeParse('42').success).toBe(false);
    expect(timeIdCursorSchema.safeParse(`${at}|5f0c1a9e-4c1b-4d3e-9a57-0d7c2b1e8f10`).success).toBe(true);
    expect(timeIdCursorSchema.safeParse(`${at}|42`).success).toBe(false);
    expect(timeIdCursorSchema.safeParse(`yesterday|5f0c1a9e-4c1b-4d3e-9a57-0d7c2b1e8f10`).success).toBe(false);
  });

  it('round-trip: the next page starts after the last row, ties in one millisecond by id', () => {
    const at = new Date('2026-11-27T10:00:00.123Z');
    const rows = [3n, 2n, 1n].map((id) => ({ id, createdAt: at }));
    const { page, nextCursor } = timeIdPage(rows, 2);
    expect(page.map((r) => r.id)).toEqual([3n, 2n]);
    expect(nextCursor).toBe('2026-11-27T10:00:00.123Z|2');
    expect(timeIdPage(rows, 3).nextCursor).toBeNull();
  });

  it('pages oldest first too (a review queue): the next page starts after the last row, forwards', () => {
    const at = new Date('2026-11-27T10:00:00.123Z');
    const id = '5f0c1a9e-4c1b-4d3e-9a57-0d7c2b1e8f10';
    expect(afterTimeIdCursor(`${at.toISOString()}|${id}`, 'asc')).toEqual({
      AND: [{ createdAt: { gte: at } }, { OR: [{ createdAt: { gt: at } }, { id: { gt: id } }] }],
    });
  });
});
