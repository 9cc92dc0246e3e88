import { describe, expect, it } from 'vitest';
import { BatchStatement, Statement, Table } from './statement';

type Thing = { id: string; name: string; payload: unknown; tags: string[]; at: Date };
const things = new Table<Thing>('things', {
  id: ['id', 'uuid'],
  name: ['name', 'text'],
  payload: ['payload', 'json'],
  tags: ['tags', 'text[]'],
  at: ['created_at', 'timestamptz'],
});

describe('Table and Statement', () => {
  it('builds an insert from the column map and reads values by name, one parameter per name', () => {
    const insert = new Statement<{ thing: Thing; check: { ownerId: string } }>(
      (sql) =>
        `WITH ok AS (SELECT 1 WHERE ${sql.param('check', 'ownerId', 'uuid')} IS NOT NULL AND ${sql.param('thing', 'id', 'uuid')} IS NOT NULL)
         ${sql.insert(things, 'thing', { from: 'ok' })}`,
    );
    expect(insert.text).toContain('INSERT INTO things (id, name, payload, tags, created_at) SELECT $2::uuid, $3::text, $4::json, $5::text[], $6::timestamptz FROM ok');
    const at = new Date('2026-01-02T03:04:05.678Z');
    const values = insert.values({ thing: { id: 'a', name: 'n', payload: { x: 1 }, tags: ['t'], at }, check: { ownerId: 'o' } });
    // JSON columns are sent as text; null and undefined both as NULL; the rest as they are.
    expect(values).toEqual(['o', 'a', 'n', '{"x":1}', ['t'], at]);
    expect(insert.values({ thing: { id: 'a', name: 'n', payload: null, tags: [], at }, check: { ownerId: 'o' } })[3]).toBeNull();
  });

  it('selects fields under their names, ids and enums as text, and reads a json row back with Dates', () => {
    expect(things.selectList('t', ['id', 'name'])).toBe('t.id::text AS "id", t.name AS "name"');
    expect(things.jsonObject('t', ['id', 'at'])).toBe("json_build_object('id', t.id, 'at', t.created_at)");
    const row = things.fromJson({ id: 'a', name: 'n', payload: null, tags: [], at: '2026-01-02T03:04:05.678+00:00' });
    expect(row.at).toEqual(new Date('2026-01-02T03:04:05.678Z'));
  });

  it('makes a batch statement of one JSON parameter, its rows the relation input i with their position n', () => {
    const insert = new BatchStatement<{ thing: Thing; check: { ownerId: string } }>(
      (sql) => `ok AS (SELECT i.n FROM input i WHERE ${sql.param('check', 'ownerId', 'uuid')} IS NOT NULL)
         ${sql.insert(things, 'thing', { from: 'input i JOIN ok USING (n)' })}`,
    );
    expect(insert.text).toContain(
      'SELECT * FROM json_to_recordset($1::json) AS i(n int, p1 uuid, p2 uuid, p3 text, p4 json, p5 text[], p6 timestamptz)',
    );
    expect(insert.text).toContain('ok AS (SELECT i.n FROM input i WHERE i.p1 IS NOT NULL)');
    expect(insert.text).toContain('INSERT INTO things (id, name, payload, tags, created_at) SELECT i.p2, i.p3, i.p4, i.p5, i.p6 FROM input i JOIN ok USING (n)');
    const at = new Date('2026-01-02T03:04:05.678Z');
    const [json] = insert.valuesOf([
      insert.row({ thing: { id: 'a', name: 'n', payload: { x: 1 }, tags: ['t'], at }, check: { ownerId: 'o' } }),
      insert.row({ thing: { id: 'b', name: 'm "quoted"\n\u2028', payload: undefined, tags: [], at }, check: { ownerId: 'p' } }),
    ]);
    expect(JSON.parse(json)).toEqual([
      { n: 1, p1: 'o', p2: 'a', p3: 'n', p4: { x: 1 }, p5: ['t'], p6: at.toISOString() },
      { n: 2, p1: 'p', p2: 'b', p3: 'm "quoted"\n\u2028', p4: null, p5: [], p6: at.toISOString() },
    ]);
  });

  it('writes a date as JSON.stringify does, an invalid one as NULL, and dates inside JSON values too', () => {
    const insert = new BatchStatement<{ thing: Thing }>((sql) => sql.insert(things, 'thing', { from: 'input i' }));
    const dates = [new Date('2026-01-02T03:04:05.678Z'), new Date(-1), new Date('+275760-09-13T00:00:00Z'), new Date(Number.NaN)];
    const [json] = insert.valuesOf(dates.map((at) => insert.row({ thing: { id: 'a', name: 'n', payload: { at }, tags: [], at } })));
    // Without the check's parameter, the thing's columns are p1 to p5: payload p3, the date p5.
    const rows = JSON.parse(json) as { p3: { at: string | null }; p5: string | null }[];
    expect(rows.map((row) => row.p5)).toEqual(dates.map((at) => JSON.parse(JSON.stringify(at))));
    expect(rows.map((row) => row.p3.at)).toEqual(rows.map((row) => row.p5));
    expect(json).toContain(`"p5":${JSON.stringify(dates[0])}`);
  });
});
