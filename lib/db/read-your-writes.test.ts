import { describe, expect, it } from 'vitest';
import { formatLsn, parseLsn, SharedQuery, WriteMarks } from './read-your-writes';

describe('WAL positions', () => {
  it('reads and writes pg_lsn text, ordering as PostgreSQL does', () => {
    expect(parseLsn('0/3000000')).toBe(0x3000000n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatLsn(parseLsn('16/B374D848')!)).toBe('16/B374D848');
    // The high part counts more than any low part.
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).toBe(true);
  });

  it('refuses what is not a position', () => {
    for (const text of [null, undefined, '', '0', '0/', '/1', 'G/1', '1/2/3', '123456789/0', ' 0/1']) expect(parseLsn(text)).toBeNull();
  });
});

describe('WriteMarks', () => {
  it('sends a caller who never wrote anywhere, and one who wrote once the replica has replayed their write', () => {
    const marks = new WriteMarks();
    expect(marks.needed('a', 0)).toBe(0n);
    expect(marks.needed(null, 0)).toBe(0n);
    const settle = marks.wrote('a', 0);
    expect(marks.needed('a', 1)).toBe('pending');
    expect(marks.needed('b', 1)).toBe(0n);
    settle(500n);
    expect(marks.needed('a', 2)).toBe(500n);
    marks.replayed('a', 499n);
    expect(marks.needed('a', 3)).toBe(500n);
    marks.replayed('a', 500n);
    expect(marks.needed('a', 4)).toBe(0n);
    expect(marks.size).toBe(0);
  });

  it('stays pending while any of a caller’s concurrent writes has no position yet', () => {
    const marks = new WriteMarks();
    const first = marks.wrote('a', 0);
    const second = marks.wrote('a', 0);
    second(900n);
    expect(marks.needed('a', 1)).toBe('pending');
    first(700n);
    expect(marks.needed('a', 1)).toBe(900n);
    // A settle called twice counts once.
    first(1_000n);
    expect(marks.needed('a', 1)).toBe(900n);
  });

  it('keeps a write whose position never came pending for a while, then forgets that write', () => {
    const marks = new WriteMarks(10, 1_000);
    marks.wrote('a', 0)(100n);
    marks.wrote('a', 50)(null);
    expect(marks.needed('a', 1_049)).toBe('pending');
    expect(marks.needed('a', 1_050)).toBe(100n);
  });

  it('makes what forgotten callers wrote a floor for every caller without a mark', () => {
    const marks = new WriteMarks(2);
    marks.wrote('a', 0)(100n);
    marks.wrote('b', 0)(200n);
    marks.wrote('c', 0)(50n); // forgets a
    expect(marks.size).toBe(2);
    expect(marks.needed('a', 1)).toBe(100n);
    expect(marks.needed('z', 1)).toBe(100n);
    expect(marks.needed('c', 1)).toBe(100n);
    expect(marks.needed('b', 1)).toBe(200n);
  });

  it('sends everyone to the primary while a forgotten caller’s write has no position yet', () => {
    const marks = new WriteMarks(1, 1_000);
    const settleA = marks.wrote('a', 0);
    marks.wrote('b', 0)(10n); // forgets a, still pending
    expect(marks.needed('z', 1)).toBe('pending');
    expect(marks.needed('b', 1)).toBe('pending');
    settleA(300n);
    expect(marks.needed('z', 2)).toBe(300n);
    expect(marks.needed('b', 2)).toBe(300n);
    // One that never comes stops counting after the limit.
    marks.wrote('c', 10); // forgets b
    marks.wrote('d', 20); // forgets c, pending
    expect(marks.needed('z', 1_009)).toBe('pending');
    expect(marks.needed('z', 1_010)).toBe(300n);
  });
});

describe('SharedQuery', () => {
  function controlled() {
    const calls: { resolve: (n: number) => void; reject: (e: Error) => void }[] = [];
    const query = new SharedQuery(() => new Promise<number>((resolve, reject) => calls.push({ resolve, reject })));
    return { query, calls };
  }

  it('gives callers arriving during a query the next one, shared, never the one already running', async () => {
    const { query, calls } = controlled();
    const first = query.ask();
    const second = query.ask();
    const third = query.ask();
    expect(calls).toHaveLength(1);
    calls[0].resolve(1);
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    calls[1].resolve(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    // Idle again: the next caller starts at once.
    const fourth = query.ask();
    expect(calls).toHaveLength(3);
    calls[2].resolve(3);
    expect(await fourth).toBe(3);
  });

  it('runs the next query after a failed one, and passes the failure only to its own callers', async () => {
    const { query, calls } = controlled();
    const first = query.ask();
    const second = query.ask();
    calls[0].reject(new Error('down'));
    await expect(first).rejects.toThrow('down');
    await Promise.resolve();
    calls[1].resolve(7);
    expect(await second).toBe(7);
  });
});
