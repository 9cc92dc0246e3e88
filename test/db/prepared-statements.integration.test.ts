import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../lib/db/sql';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';

describe('hot-path SQL (prepared statements on the pg pool)', () => {
  let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
  beforeAll(async () => {
    iso = await createIsolatedDatabase();
    await iso.db.$executeRawUnsafe('CREATE TABLE probe (id int PRIMARY KEY, note text)');
    await iso.db.$executeRawUnsafe(`INSERT INTO probe VALUES (1, 'one')`);
  });
  afterAll(async () => {
    await iso?.close();
  });

  it('keeps answering after a migration changes the type of a column a statement returns', async () => {
    const read = () => sqlRows<{ note: unknown }>(iso.db, 'SELECT note FROM probe WHERE id = $1::int', [1]);
    // Prepared on every connection the pool opens for these concurrent reads.
    const before = await Promise.all(Array.from({ length: 8 }, read));
    expect(before.map((rows) => rows[0].note)).toEqual(Array(8).fill('one'));

    await iso.db.$executeRawUnsafe(`ALTER TABLE probe ALTER COLUMN note TYPE json USING to_json(note)`);
    const after = await Promise.all(Array.from({ length: 8 }, read));
    expect(after.map((rows) => rows[0].note)).toEqual(Array(8).fill('one'));
  });
});
