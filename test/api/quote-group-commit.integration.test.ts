import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBookVersion } from '../../lib/books/create-book-version';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { systemContext } from '../../lib/context/verb-context';
import { sqlRows } from '../../lib/db/sql';
import { BatchStatement } from '../../lib/db/statement';
import { createQuote } from '../../lib/quotes/create-quote';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb } from '../../lib/testing/factories';

// Concurrent quotes of one process share statements and commits (lib/db/group-commit.ts,
// lib/quotes/store/write.ts): each request must still get its own outcome.
describe('quotes written together', () => {
  it('gives each of many concurrent quotes its own outcome, receipt, event and deliveries, in shared commits', async () => {
    const tenant = await createTenant();
    const admin = await createPerson(tenant, { permissions: 'all' });
    const endpoint = await api('POST', '/v1/webhook-endpoints', {
      key: admin.token,
      body: { projectId: tenant.projectId, environment: 'test', url: 'https://hooks.example.test/batch' },
    });
    expect(endpoint.status).toBe(201);
    // A version of the book that is not published: what a scope remembered from before a publish names.
    const unpublished = await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: demoBookArtifact });

    const sharedKey = `shared-${randomUUID()}`;
    const fresh: boolean[] = [];
    const [distinct, shared, needsInput, staleScope] = await Promise.all([
      Promise.all(Array.from({ length: 24 }, () => api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) }))),
      Promise.all(
        Array.from({ length: 4 }, () => api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant, { idempotencyKey: sharedKey }) })),
      ),
      api('POST', '/v1/quotes', {
        key: tenant.keys.test,
        body: quoteRequest(tenant, { factors: { home_size: demoExample.factors.home_size } }),
      }),
      // A scope remembered from before a publish: its first insert finds the publication changed
      // (while other quotes in its batch are written), and the retry on a fresh scope succeeds.
      createQuote(
        { ...systemContext(testDb(), 'test'), startedAt: performance.now() },
        {
          resolveScope: async (isFresh) => {
            fresh.push(isFresh);
            return {
              workspaceId: tenant.workspaceId,
              projectId: tenant.projectId,
              environmentId: tenant.environments.test,
              bookId: tenant.bookId,
              businessId: tenant.businessId,
              publishedVersionId: isFresh ? tenant.versionId : unpublished.id,
              bookMustBePrimary: false,
            };
          },
          source: 'api',
          surface: 'api',
          idempotencyScope: 'api',
          inputs: { offeringId: demoExample.offeringId, factors: demoExample.factors },
          payload: { stale: true },
          whenUnpublished: 'failed_receipt',
        },
      ),
    ]);

    expect(distinct.map((r) => r.status)).toEqual(Array(24).fill(201));
    expect(new Set(distinct.map((r) => r.body.data.quoteIntent.id)).size).toBe(24);
    for (const r of distinct) expect(r.body.data.quoteReceipt.computation.totalMinor).toBe(15525);

    expect(new Set(shared.map((r) => r.body.data.quoteIntent.id)).size).toBe(1);
    expect(shared.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);

    expect(needsInput.status).toBe(201);
    expect(needsInput.body.data.quoteIntent.status).toBe('requires_input');
    const missing = needsInput.body.data.quoteReceipt.missingInputs as string[];
    expect(missing.length).toBeGreaterThan(0);

    expect(fresh).toEqual([false, true]);
    expect(staleScope.result.quoteIntent.bookVersionId).toBe(tenant.versionId);

    const intentIds = [
      ...distinct.map((r) => r.body.data.quoteIntent.id as string),
      shared[0].body.data.quoteIntent.id as string,
      needsInput.body.data.quoteIntent.id as string,
      staleScope.result.quoteIntent.id,
    ];
    const db = testDb();
    const intents = await db.quoteIntent.count({ where: { workspaceId: tenant.workspaceId } });
    expect(intents).toBe(intentIds.length);
    const receipts = await db.quoteReceipt.findMany({ where: { quoteIntentId: { in: intentIds } }, select: { quoteIntentId: true, missingInputs: true } });
    expect(receipts.map((r) => r.quoteIntentId).sort()).toEqual([...intentIds].sort());
    expect(receipts.find((r) => r.quoteIntentId === needsInput.body.data.quoteIntent.id)!.missingInputs).toEqual(missing);

    // One outcome event per quote, each fanned out to the endpoint at its own instant.
    const events = await sqlRows<{ subject: string; at: Date; deliveries: number; delivered_at: Date }>(
      db,
      `SELECT e.subject_id::text AS subject, e.created_at AS at, count(d.id)::int AS deliveries, min(d.created_at) AS delivered_at
       FROM outbox_events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
       WHERE e.workspace_id = $1::uuid AND e.type LIKE 'quote_intent.%' GROUP BY e.id`,
      [tenant.workspaceId],
    );
    expect(events.map((e) => e.subject).sort()).toEqual([...intentIds].sort());
    for (const event of events) {
      expect(event.deliveries).toBe(1);
      expect(event.delivered_at).toEqual(event.at);
    }

    // Written together: rows that one transaction wrote share its id (xmin).
    const [{ commits }] = await sqlRows<{ commits: number }>(
      db,
      'SELECT count(DISTINCT xmin::text)::int AS commits FROM quote_intents WHERE id = ANY($1::uuid[])',
      [intentIds],
    );
    expect(commits).toBeLessThan(intentIds.length);
  });

  it('reads every row of a batch back as it was sent: text arrays, JSON, instants and nulls', async () => {
    type Row = { name: string; tags: string[] | null; doc: unknown; at: Date | null };
    const echo = new BatchStatement<{ row: Row }>(
      (sql) => `named AS (SELECT i.n, ${sql.param('row', 'name', 'text')} AS name FROM input i)
       SELECT named.name, ${sql.param('row', 'tags', 'text[]')} AS tags, ${sql.param('row', 'doc', 'json')} AS doc,
         ${sql.param('row', 'at', 'timestamptz')} AS at
       FROM input i JOIN named USING (n) ORDER BY i.n`,
    );
    const at = new Date('2026-11-28T12:34:56.789Z');
    const rows: { row: Row }[] = [
      { row: { name: 'plain', tags: ['a', 'b'], doc: { total: 15525 }, at } },
      { row: { name: 'awkward "one"', tags: ['say "hi"', 'back\\slash', 'comma, {brace}', ''], doc: ['ünïcode', null, 1.5], at } },
      { row: { name: 'empty', tags: [], doc: {}, at: null } },
      { row: { name: 'none', tags: null, doc: null, at: null } },
    ];
    expect(await sqlRows(testDb(), echo.text, echo.valuesOf(rows.map((bindings) => echo.row(bindings))))).toEqual(rows.map(({ row }) => row));
  });
});
