import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { api } from '../support/api-client';
import { createTenant, quoteRequest, testDb } from '../../lib/testing/factories';

/**
 * Issue 43: a quote's write checks its own business's connection, project and publication by
 * their indexes. Written as EXISTS, the statement's generic plan (the one a prepared statement
 * settles on) joined each batch to every active connection of the service: 2 ms of PostgreSQL a
 * quote with 661 businesses, growing with every business that connects.
 */
describe("a quote's write reads its own scope, not every business's", () => {
  const spy = vi.spyOn(pg.Pool.prototype, 'query');
  afterAll(() => spy.mockRestore());

  type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Cond'?: string; Filter?: string; 'Shared Hit Blocks': number; 'Shared Read Blocks': number; Plans?: PlanNode[] };
  const tableReads = (node: PlanNode): PlanNode[] => [...(node['Relation Name'] ? [node] : []), ...(node.Plans ?? []).flatMap(tableReads)];
  /** The tables the write's checks read, and the column each must be looked up by. */
  const CHECKED: Record<string, string> = { api_keys: '(id = ', connections: '(business_id = ', projects: '(id = ', publications: '(book_id = ', receipt_signing_keys: '(kid = ' };

  it('looks up each table its checks read by the quote\'s own key, with 300 more businesses connected', async () => {
    const tenant = await createTenant();
    // 300 more businesses with active connections, in the tenant's workspace and project.
    await testDb().$executeRawUnsafe(
      `WITH b AS (
         INSERT INTO businesses (id, workspace_id, name) SELECT gen_random_uuid(), $1::uuid, 'Other ' || g FROM generate_series(1, 300) g RETURNING id
       ) INSERT INTO connections (id, business_id, project_id, kind, status) SELECT gen_random_uuid(), b.id, $2::uuid, 'managed', 'active' FROM b`,
      tenant.workspaceId,
      tenant.projectId,
    );
    await testDb().$executeRawUnsafe('ANALYZE connections');

    const written = spy.mock.calls.length;
    const created = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant, { idempotencyKey: `plan-${randomUUID()}` }) });
    expect(created.status).toBe(201);
    const write = spy.mock.calls.slice(written).map(([query, values]) => (typeof query === 'object' ? query : { text: query, values })).find((q) => q.text.includes('new_intent AS'));
    expect(write, 'the quote was written through the pool').toBeDefined();

    // The plan a prepared statement settles on, run again (the key is taken: it writes nothing
    // and checks everything), and the pages it touched.
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE quote_write AS ${write!.text}`);
      const values = write!.values as unknown[];
      const literals = values.map((v) => (v === null ? 'NULL' : client.escapeLiteral(String(v))));
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE quote_write(${literals.join(', ')})`);
      const plan = rows[0]['QUERY PLAN'][0].Plan as PlanNode;
      // Each table the checks read is looked up by the quote's own key, whatever the statistics.
      const reads = tableReads(plan).filter((node) => CHECKED[node['Relation Name']!]);
      expect(reads.map((node) => node['Relation Name']).sort()).toEqual(['api_keys', 'connections', 'projects', 'publications', 'receipt_signing_keys']);
      // By its index, or (a table of a few pages, as projects are here) a scan filtered by that
      // key; never a scan of every row joined or hashed for the batch.
      for (const node of reads) expect(node['Index Cond'] ?? node.Filter ?? '', node['Relation Name']).toContain(CHECKED[node['Relation Name']!]);
      expect(reads.find((node) => node['Relation Name'] === 'connections')?.['Index Cond']).toContain(CHECKED.connections);
      // One quote's lookups are a few pages each; a join with 300 connections touches over 900.
      expect(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']).toBeLessThan(100);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });
});
