import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../lib/db/client';

/**
 * A connection given back to the pool inside a transaction is closed, never lent again: the next
 * borrower would otherwise write into that transaction (unseen by every other connection until
 * it ended) or fail on an aborted one.
 */
describe('a connection given back inside a transaction', () => {
  // The pool lends its most recently given-back idle connection first: one it kept would be the next lent.
  const db = createDb(process.env.TEST_DATABASE_URL!);
  afterAll(() => db.close());

  const pidOfNext = async () => (await db.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

  async function giveBack(statements: string[]): Promise<{ pid: number; ended: Promise<unknown> }> {
    const client = await db.pool.connect();
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    for (const statement of statements) await client.query(statement).catch(() => undefined);
    const ended = new Promise((resolve) => client.once('end', resolve));
    client.release();
    return { pid, ended };
  }

  it('is reused when it is idle', async () => {
    const { pid } = await giveBack([]);
    const before = db.pool.totalCount;
    expect(await pidOfNext()).toBe(pid);
    expect(db.pool.totalCount).toBe(before);
  });

  it('is closed when its transaction is open (closing it rolls the transaction back)', async () => {
    const { pid, ended } = await giveBack(['BEGIN', 'CREATE TEMP TABLE guard_marker (v text)']);
    expect(await pidOfNext()).not.toBe(pid);
    await ended;
  });

  it('is closed when its transaction failed', async () => {
    const { pid, ended } = await giveBack(['BEGIN', 'SELECT 1 / 0']);
    expect(await pidOfNext()).not.toBe(pid);
    await ended;
    // The pool answers: no "current transaction is aborted" for the next borrower.
    expect((await db.pool.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
  });
});
