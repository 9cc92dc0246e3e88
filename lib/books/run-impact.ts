import { setImmediate as nextTurn } from 'node:timers/promises';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { issuesByField } from '../errors/parse-or-throw';
import { ServiceError } from '../errors/service-error';
import { canonicalHash } from '../hash/canonical-hash';
import { bookArtifactSchema, compileBook, evaluate, type CompiledBook, type Outcome, type QuoteInputs } from '../pricing';
import { bookLabels, ruleDifferences, totalOf, type BookLabels, type ChangeKind, type PricedOutcome } from '../pricing/compare';
import { IMPACT_WINDOWS, type Impact, type ImpactRequest, type ImpactResult, type PublishGuard } from './impact-schemas';
import { ImpactTally, type KindCounts, type MoverCandidate } from './impact-tally';
import { readPublishGuard } from './publish-guard';
import {
  compiled,
  countWindowQuotes,
  environmentIdOf,
  findVersionOfBook,
  readDistinctRequests,
  readDraft,
  versionNumbers,
  type ImpactWindow,
} from './store';

/** How many movers an impact run explains. */
const MOVER_COUNT = 20;
/** Distinct requests fetched, priced and counted at a time; the event loop breathes in between. */
const BATCH = 2_000;

export type ImpactProgress = { done: number; total: number };
export type ImpactInput = {
  book: { id: string; projectId: string };
  request: ImpactRequest;
  /** Called after each batch with quotes counted so far, of all quotes in the window. */
  onProgress?: (progress: ImpactProgress) => Promise<void> | void;
};

type Candidate = { book: CompiledBook; descriptor: Impact['candidate'] };

/**
 * POST /v1/books/{id}/impact (`books:publish`, checked by the route): re-prices the book's
 * distinct requests of a window in one environment against a draft or version, and compares
 * each with what the version that answered it gave. Nothing is stored. The version that
 * answered is re-priced rather than its receipts read: versions are immutable and the engine
 * deterministic, so that is the receipt, without reading 50,000 of them.
 */
export async function runImpact(ctx: VerbContext, { book, request, onProgress }: ImpactInput): Promise<ImpactResult> {
  const { db, now } = ctx;
  const candidate = await resolveCandidate(db, book.id, request);
  if ('issues' in candidate) return { valid: false, issues: candidate.issues, impact: null };
  const environmentId = await environmentIdOf(db, book.projectId, request.environment);
  const window: ImpactWindow = { bookId: book.id, environmentId, ...impactWindow(request, now), offeringId: request.offeringId ?? null };
  const guard = await readPublishGuard(ctx, { projectId: book.projectId });
  const total = await countWindowQuotes(db, window);

  const tally = new ImpactTally(guard.changePercent, MOVER_COUNT);
  const baselines = new Map<string | null, { book: CompiledBook | null; quotes: number }>();
  let done = 0;
  await onProgress?.({ done, total });
  await readDistinctRequests(db, window, BATCH, async (rows) => {
    for (const row of rows) {
      let baseline = baselines.get(row.baselineVersionId);
      if (!baseline) {
        baseline = { book: row.baselineVersionId ? await compiled(db, row.baselineVersionId) : null, quotes: 0 };
        baselines.set(row.baselineVersionId, baseline);
      }
      baseline.quotes += row.quotes;
      const before = baseline.book ? evaluate(baseline.book, row.inputs) : null;
      tally.add(row, before, evaluate(candidate.book, row.inputs));
      done += row.quotes;
    }
    await onProgress?.({ done, total });
    await nextTurn(); // other requests of this process get their turn between batches
  });

  const figures = tally.figures();
  const numbers = await versionNumbers(db, [...baselines.keys()].filter((id) => id !== null));
  const significantlyChangedPercent = figures.quotes === 0 ? 0 : Math.round((figures.significantlyChangedQuotes * 10_000) / figures.quotes) / 100;
  const labels = bookLabels([candidate.book, ...[...baselines.values()].flatMap((b) => (b.book ? [b.book] : []))]);
  return {
    valid: true,
    issues: {},
    impact: {
      bookId: book.id,
      environment: request.environment,
      window: { from: window.from.toISOString(), to: window.to.toISOString() },
      offeringId: request.offeringId ?? null,
      candidate: candidate.descriptor,
      baselineVersions: [...baselines]
        .map(([versionId, b]) => ({ versionId, number: versionId ? (numbers.get(versionId) ?? null) : null, quotes: b.quotes }))
        .sort((a, b) => (b.number ?? -1) - (a.number ?? -1)),
      requests: figures.requests,
      quotes: figures.quotes,
      counts: countsView(figures.counts),
      requestCounts: countsView(figures.requestCounts),
      histogram: figures.histogram,
      offerings: figures.offerings.map((o) => ({ ...o, label: labels.offering(o.offeringId) })),
      movers: tally.largestMovers().map((mover) =>
        explainMover(mover, baselines.get(mover.request.baselineVersionId)!.book, candidate.book, numbers, labels),
      ),
      guard: {
        ...guard,
        significantlyChangedQuotes: figures.significantlyChangedQuotes,
        significantlyChangedPercent,
        requiresConfirmation: requiresConfirmation(guard, figures.significantlyChangedQuotes, figures.quotes),
      },
    },
  };
}

/** Whether more than the guard's share of quotes would change: a typed confirmation is needed. */
export function requiresConfirmation(guard: PublishGuard, significantlyChanged: number, quotes: number): boolean {
  return significantlyChanged > 0 && significantlyChanged * 100 > guard.sharePercent * quotes;
}

function impactWindow(request: Pick<ImpactRequest, 'window' | 'from' | 'to'>, now: Date): { from: Date; to: Date } {
  if (request.from !== undefined) return { from: new Date(request.from), to: request.to === undefined ? now : new Date(request.to) };
  return { from: new Date(now.getTime() - IMPACT_WINDOWS[request.window ?? '7d']), to: now };
}

async function resolveCandidate(db: DbOrTx, bookId: string, request: ImpactRequest): Promise<Candidate | { issues: Record<string, string[]> }> {
  if (request.versionId !== undefined) {
    const version = await findVersionOfBook(db, bookId, request.versionId);
    if (!version) throw new ServiceError('not_found', `Version ${request.versionId} of book ${bookId} does not exist.`);
    const book = await compiled(db, version.id);
    return { book, descriptor: { source: 'version', versionId: version.id, number: version.number, artifactHash: version.artifactHash, currency: book.artifact.currency } };
  }
  const source = request.artifact !== undefined ? 'artifact' : 'draft';
  const artifact = request.artifact ?? (await readDraft(db, bookId));
  if (artifact === null) throw new ServiceError('invalid_request', 'The book has no saved draft: send versionId or artifact.');
  const parsed = bookArtifactSchema.safeParse(artifact);
  if (!parsed.success) return { issues: issuesByField(parsed.error, 'artifact') };
  return {
    book: compileBook(parsed.data),
    descriptor: { source, versionId: null, number: null, artifactHash: canonicalHash(artifact), currency: parsed.data.currency },
  };
}

const KIND_FIELD: Record<ChangeKind, keyof Impact['counts']> = {
  unchanged: 'unchanged',
  higher: 'higher',
  lower: 'lower',
  newly_requires_input: 'newlyRequiresInput',
  newly_failed: 'newlyFailed',
  now_priced: 'nowPriced',
};

function countsView(counts: KindCounts): Impact['counts'] {
  const view = {} as Impact['counts'];
  for (const [kind, field] of Object.entries(KIND_FIELD)) view[field] = counts[kind as ChangeKind];
  return view;
}

/** A mover, re-priced both ways once more to say which rules moved it. */
function explainMover(
  mover: MoverCandidate,
  baseline: CompiledBook | null,
  candidate: CompiledBook,
  versionNumbers: Map<string, number>,
  labels: BookLabels,
): Impact['movers'][number] {
  const { inputs } = mover.request;
  const before: PricedOutcome = baseline ? evaluate(baseline, inputs) : null;
  const after: Outcome = evaluate(candidate, inputs);
  const differences =
    baseline && before?.outcome === 'succeeded' && after.outcome === 'succeeded'
      ? ruleDifferences(baseline, before.computation.derivation, candidate, after.computation.derivation)
      : [];
  return {
    quoteIntentId: mover.request.latestIntentId,
    quotes: mover.request.quotes,
    offeringId: inputs.offeringId,
    offeringLabel: labels.offering(inputs.offeringId),
    answers: answersOf(inputs, labels),
    change: mover.kind,
    changePercent: mover.changePercent,
    before: {
      versionNumber: mover.request.baselineVersionId ? (versionNumbers.get(mover.request.baselineVersionId) ?? null) : null,
      outcome: before === null ? 'failed' : before.outcome,
      totalMinor: totalOf(before),
    },
    after: {
      outcome: after.outcome,
      totalMinor: totalOf(after),
      missingInputs: after.outcome === 'requires_input' ? after.missingInputs : [],
      failure: after.outcome === 'failed' ? after.failure : null,
    },
    differences,
  };
}

function answersOf(inputs: QuoteInputs, labels: BookLabels): Impact['movers'][number]['answers'] {
  return Object.keys(inputs.factors)
    .sort()
    .map((factorId) => {
      const optionId = inputs.factors[factorId] ?? null;
      return { factorId, factor: labels.factor(factorId), optionId, option: optionId === null ? null : labels.option(factorId, optionId) };
    });
}
