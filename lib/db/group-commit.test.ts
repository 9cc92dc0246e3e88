import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

/** A write that is held until the test lets it finish, recording each batch it was given. */
function heldWrites() {
  const batches: number[][] = [];
  const finish: (() => void)[] = [];
  const write = (rows: number[]) => {
    batches.push(rows);
    return new Promise<string[]>((resolve, reject) => {
      // Row 13 is refused, in a batch or alone.
      finish.push(() => (rows.includes(13) ? reject(new Error(rows.length > 1 ? 'row 13 refused' : '13 alone')) : resolve(rows.map((row) => `wrote ${row}`))));
    });
  };
  return { batches, finish, write };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes a row alone at once, and rows that come while the writes run together in the next one', async () => {
    const { batches, finish, write } = heldWrites();
    const commits = new GroupCommit(write, { maxInFlight: 1, maxRows: 10 });
    const first = commits.submit(1);
    expect(batches).toEqual([[1]]);
    const later = [2, 3, 4].map((row) => commits.submit(row));
    await settle();
    expect(batches).toEqual([[1]]);
    finish[0]();
    expect(await first).toBe('wrote 1');
    await settle();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finish[1]();
    expect(await Promise.all(later)).toEqual(['wrote 2', 'wrote 3', 'wrote 4']);
  });

  it('sends the next batch before the callers of the one just written go on', async () => {
    const { batches, finish, write } = heldWrites();
    const commits = new GroupCommit(write, { maxInFlight: 1, maxRows: 10 });
    const sentWhenFirstAnswered = commits.submit(1).then(() => batches.map((batch) => [...batch]));
    const later = [2, 3].map((row) => commits.submit(row));
    finish[0]();
    expect(await sentWhenFirstAnswered).toEqual([[1], [2, 3]]);
    finish[1]();
    expect(await Promise.all(later)).toEqual(['wrote 2', 'wrote 3']);
  });

  it('keeps at most maxInFlight writes running and at most maxRows rows in one', async () => {
    const { batches, finish, write } = heldWrites();
    const commits = new GroupCommit(write, { maxInFlight: 2, maxRows: 3 });
    const all = [1, 2, 3, 4, 5, 6, 7, 8].map((row) => commits.submit(row));
    expect(batches).toEqual([[1], [2]]);
    finish[0]();
    await settle();
    expect(batches).toEqual([[1], [2], [3, 4, 5]]);
    finish[1]();
    await settle();
    expect(batches).toEqual([[1], [2], [3, 4, 5], [6, 7, 8]]);
    finish[2]();
    finish[3]();
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((row) => `wrote ${row}`));
  });

  it('retries a failed write row by row: only the bad row fails, with its own error', async () => {
    const { batches, finish, write } = heldWrites();
    const commits = new GroupCommit(write, { maxInFlight: 1, maxRows: 10 });
    const first = commits.submit(1);
    const rest = [12, 13, 14].map((row) => commits.submit(row).catch((error: Error) => error.message));
    finish[0]();
    await first;
    await settle();
    finish[1](); // the batch [12, 13, 14] fails
    for (let i = 2; i < 5; i++) {
      await settle();
      finish[i]();
    }
    expect(await Promise.all(rest)).toEqual(['wrote 12', '13 alone', 'wrote 14']);
    expect(batches).toEqual([[1], [12, 13, 14], [12], [13], [14]]);
  });

  it('keeps one per client (perClient): each writes with its own client, and batches only its own rows', async () => {
    const written: [string, number[]][] = [];
    const commitOf = GroupCommit.perClient(async (client: { name: string }, rows: number[]) => {
      written.push([client.name, rows]);
      return rows.map((row) => `${client.name} ${row}`);
    }, { maxInFlight: 1, maxRows: 10 });
    const [a, b] = [{ name: 'a' }, { name: 'b' }];
    expect(commitOf(a)).toBe(commitOf(a));
    expect(commitOf(a)).not.toBe(commitOf(b));
    const answers = await Promise.all([commitOf(a).submit(1), commitOf(b).submit(2), commitOf(a).submit(3)]);
    expect(answers).toEqual(['a 1', 'b 2', 'a 3']);
    expect(written).toEqual([['a', [1]], ['b', [2]], ['a', [3]]]);
  });
});
