import { describe, expect, it } from 'vitest';
import { Statement, Table } from './statement';

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
});
