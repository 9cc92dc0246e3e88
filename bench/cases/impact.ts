// The impact run with a big window: 50,000 distinct recent requests (60,000 quotes) of a
// 100-rule book, re-priced against a draft. Measured twice: through HTTP on the service (what a
// publisher waits for) and by calling the domain verb in this process (one core, its CPU time).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { createBook } from '../../lib/books/create-book';
import { createBookVersion } from '../../lib/books/create-book-version';
import { publishBookVersion } from '../../lib/books/publish-book-version';
import { runImpact } from '../../lib/books/run-impact';
import { impactRequestSchema } from '../../lib/books/impact-schemas';
import type { Db } from '../../lib/db/client';
import type { BookArtifactInput } from '../../lib/pricing';
import { testContext } from '../../lib/testing/factories';
import { generateBook, prng } from '../../lib/testing/generate-book';

export const IMPACT_DISTINCT = 50_000;
export const IMPACT_QUOTES = 60_000;
const RULES = 100;
const RUNS = 5;

export type ImpactRun = { wallMs: number; cpuMs: number | null };
export type ImpactBenchResult = {
  distinctRequests: number;
  quotes: number;
  rules: number;
  changedQuotes: number;
  seedSeconds: number;
  /** POST /v1/books/{id}/impact on the service: wall time per run (the first warms the version cache). */
  http: ImpactRun[];
  /** runImpact in the benchmark process: wall and CPU time of this one thread. */
  inProcess: ImpactRun[];
};

/** The generated book with a few prices moved: a draft whose impact is worth measuring. */
function draftOf(book: BookArtifactInput): BookArtifactInput {
  const draft = structuredClone(book);
  draft.offerings = draft.offerings.map((o, i) => (i === 1 ? { ...o, basePriceMinor: o.basePriceMinor + 1_500 } : o));
  draft.rules = (draft.rules ?? []).map((r, i) =>
    i % 10 === 0 && r.phase === 'conditionalModifier' && r.adjustment.type === 'fixed'
      ? { ...r, adjustment: { type: 'fixed', amountMinor: r.adjustment.amountMinor + 400 } }
      : r,
  );
  return draft;
}

/**
 * `distinct` different complete answers (8 factors of 4 options, 4 offerings: 262,144 exist),
 * each quoted once, then `quotes - distinct` repeats of earlier ones, spread over the last 23 hours.
 */
function history(distinct: number, quotes: number): string[] {
  const random = prng(99);
  const seen = new Set<string>();
  const rows: string[] = [];
  while (rows.length < distinct) {
    const factors: Record<string, string> = {};
    for (let f = 0; f < 8; f++) factors[`f${f}`] = `o${Math.floor(random() * 4)}`;
    const text = JSON.stringify({ offeringId: `service_${Math.floor(random() * 4)}`, factors });
    if (seen.has(text)) continue;
    seen.add(text);
    rows.push(text);
  }
  for (let i = distinct; i < quotes; i++) rows.push(rows[Math.floor(random() * distinct)]);
  return rows;
}

export async function runImpactCase(
  db: Db,
  admin: pg.Pool,
  tenant: { workspaceId: string; projectId: string; businessId: string; environments: { live: string } },
  person: { principal: { email: string }; token: string },
  serviceUrl: string,
  log: (message: string) => void,
): Promise<ImpactBenchResult> {
  const seedStarted = Date.now();
  const artifact = generateBook(RULES);
  const book = await createBook(testContext(db), { projectId: tenant.projectId, key: `impact-${randomUUID().slice(0, 8)}`, name: 'Impact bench book' });
  const version = await createBookVersion(testContext(db), { bookId: book.id, artifact });
  await publishBookVersion(testContext(db), { bookId: book.id, versionId: version.id, environment: 'live' });
  const inputs = history(IMPACT_DISTINCT, IMPACT_QUOTES);
  log(`impact: inserting ${IMPACT_QUOTES.toLocaleString('en-US')} quote intents (${IMPACT_DISTINCT.toLocaleString('en-US')} distinct answers)`);
  for (let start = 0; start < inputs.length; start += 10_000) {
    const batch = inputs.slice(start, start + 10_000);
    await admin.query(
      `INSERT INTO quote_intents (id, workspace_id, project_id, environment_id, book_id, book_version_id, business_id, status, source,
         idempotency_scope, idempotency_key, request_fingerprint, request_correlation_id, inputs, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::uuid, 'succeeded', 'api', 'api',
         'bench-' || ($8::int + n), 'fp', 'bench', i::json, now() - ((($8::int + n) % 82800) * interval '1 second'), now()
       FROM unnest($7::text[]) WITH ORDINALITY AS t(i, n)`,
      [tenant.workspaceId, tenant.projectId, tenant.environments.live, book.id, version.id, tenant.businessId, batch, start],
    );
  }
  await admin.query('VACUUM ANALYZE quote_intents');
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const body = { artifact: draftOf(artifact), window: '24h' as const };
  let changedQuotes = 0;
  const http: ImpactRun[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const response = await fetch(`${serviceUrl}/v1/books/${book.id}/impact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { data?: { impact: { requests: number; quotes: number; counts: Record<string, number> } } };
    const wallMs = performance.now() - started;
    const impact = answer.data?.impact;
    if (response.status !== 200 || !impact || impact.requests !== IMPACT_DISTINCT || impact.quotes !== IMPACT_QUOTES) {
      throw new Error(`impact run answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    }
    changedQuotes = IMPACT_QUOTES - impact.counts.unchanged;
    http.push({ wallMs, cpuMs: null });
    log(`impact: HTTP run ${run + 1}: ${wallMs.toFixed(0)} ms`);
  }

  const inProcess: ImpactRun[] = [];
  const request = impactRequestSchema.parse(body);
  for (let run = 0; run < RUNS; run++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await runImpact(testContext(db), { book: { id: book.id, projectId: tenant.projectId }, request });
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (result.impact?.requests !== IMPACT_DISTINCT) throw new Error('impact run in process saw the wrong requests');
    inProcess.push({ wallMs, cpuMs: (used.user + used.system) / 1000 });
    log(`impact: in-process run ${run + 1}: ${wallMs.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU`);
  }
  return { distinctRequests: IMPACT_DISTINCT, quotes: IMPACT_QUOTES, rules: RULES, changedQuotes, seedSeconds, http, inProcess };
}
