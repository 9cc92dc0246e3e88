import type { SessionPrincipal } from '../auth/principal';
import { lockBook, publishedVersionIdOf, type BookTenancy } from '../books/store';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { experimentNotFound } from './read-experiments';
import { runningDefinition, toExperimentView } from './running-experiment';
import type { ExperimentView } from './schemas';
import { worstPriceDifference } from './price-guard';
import { findExperiment, markStarted, markStopped, runningExperimentId } from './store';

/**
 * Starts a draft experiment: pins its control to the version the environment's publication
 * points at now and hangs its definition on that publication, which is where the quote path
 * reads it (with the publication, remembered with the scope; the quote's insert re-checks the
 * experiment as it re-checks the version, so every process learns of the start at its next
 * quote). One running experiment per book and environment. Publishing takes turns on the book's
 * row, so the control pinned is the publication at this moment. The price guardrail: a variant
 * pricing any recent answers (or the book's examples) further from the control than the
 * experiment allows is refused (409, naming the worst answers and both prices; price-guard.ts).
 */
export async function startExperiment(
  ctx: VerbContext<SessionPrincipal>,
  { book, experimentId }: { book: BookTenancy; experimentId: string },
): Promise<ExperimentView> {
  return withTransaction(ctx, async ({ db, now, principal }) => {
    await lockBook(db, book.id);
    const row = await findExperiment(db, book.id, experimentId, { lock: true });
    if (!row) throw experimentNotFound(experimentId);
    if (row.state !== 'draft') throw new ServiceError('conflict', `Experiment ${experimentId} is ${row.state}; only a draft starts.`);
    const controlVersionId = await publishedVersionIdOf(db, book.id, row.environmentId);
    if (!controlVersionId) throw new ServiceError('conflict', `Nothing of book ${book.id} is published in ${row.environment}: the control is the publication.`);
    const running = await runningExperimentId(db, book.id, row.environmentId);
    if (running) throw new ServiceError('conflict', `Experiment ${running} is already running on this book in ${row.environment}; stop it first.`);
    const tooFar = await worstPriceDifference(db, {
      bookId: book.id,
      environmentId: row.environmentId,
      controlVersionId,
      variants: row.variants,
      offeringIds: row.offeringIds.length > 0 ? row.offeringIds : null,
      limitPercent: row.maxPriceDifferencePercent,
      now,
    });
    if (tooFar) {
      throw new ServiceError('conflict', `Experiment ${experimentId} cannot start: ${tooFar.message}`, {
        details: { guardrail: 'max_price_difference', priceDifference: tooFar },
      });
    }
    await markStarted(db, { id: row.id, bookId: book.id, environmentId: row.environmentId, controlVersionId, definition: runningDefinition(row, controlVersionId), at: now });
    const view = toExperimentView((await findExperiment(db, book.id, experimentId))!);
    await recordEvent(
      { db, now },
      {
        type: 'experiment.started',
        workspaceId: book.workspaceId,
        projectId: book.projectId,
        environmentId: row.environmentId,
        subjectId: row.id,
        data: { experiment: view, startedBy: principal.userId },
      },
    );
    return view;
  });
}

/**
 * Stops a running experiment: from the commit on, every quote is priced with the publication
 * (the control, unless someone published since). Quotes already made keep their arm.
 */
export async function stopExperiment(
  ctx: VerbContext<SessionPrincipal>,
  { book, experimentId }: { book: BookTenancy; experimentId: string },
): Promise<ExperimentView> {
  return withTransaction(ctx, async ({ db, now, principal }) => {
    await lockBook(db, book.id);
    const row = await findExperiment(db, book.id, experimentId, { lock: true });
    if (!row) throw experimentNotFound(experimentId);
    if (row.state !== 'running') throw new ServiceError('conflict', `Experiment ${experimentId} is ${row.state}; only a running one stops.`);
    await markStopped(db, { id: row.id, at: now });
    const view = toExperimentView((await findExperiment(db, book.id, experimentId))!);
    await recordEvent(
      { db, now },
      {
        type: 'experiment.stopped',
        workspaceId: book.workspaceId,
        projectId: book.projectId,
        environmentId: row.environmentId,
        subjectId: row.id,
        data: { experiment: view, stoppedBy: principal.userId },
      },
    );
    return view;
  });
}
