import type { SessionPrincipal } from '../auth/principal';
import { checkPublishSafeguard } from '../books/publish-with-safeguard';
import { publishBookVersion, type PublishInput } from '../books/publish-book-version';
import { lockBook, type BookTenancy } from '../books/store';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { experimentNotFound } from './read-experiments';
import { armsOf, toExperimentView } from './running-experiment';
import type { ExperimentView, PromoteExperimentRequest } from './schemas';
import { findExperiment, markConcluded, type ExperimentRow } from './store';

const PROMOTABLE: ReadonlySet<ExperimentRow['state']> = new Set(['running', 'stopped']);

/**
 * Promotes an arm of a running or stopped experiment and concludes it: a variant's version is
 * published through the publishing safeguard (the impact measured first, the typed confirmation
 * asked for on Live, the same refusals as POST …/publications); the control publishes nothing.
 * The publication, the conclusion, taking the definition off the publication and the events
 * commit together, on the book's row as publishing and starting take turns on it.
 */
export async function promoteExperiment(
  ctx: VerbContext<SessionPrincipal>,
  { book, experimentId, request }: { book: BookTenancy; experimentId: string; request: PromoteExperimentRequest },
): Promise<ExperimentView> {
  const row = await findExperiment(ctx.db, book.id, experimentId);
  if (!row) throw experimentNotFound(experimentId);
  assertPromotable(row);
  const arm = armsOf(row).find((a) => a.name === request.arm);
  if (!arm?.versionId) {
    throw new ServiceError('invalid_request', `Experiment ${experimentId} has no arm "${request.arm}".`, {
      details: { fields: { arm: [`one of: ${armsOf(row).map((a) => a.name).join(', ')}`] } },
      param: 'arm',
    });
  }
  const winner = { arm: arm.name, versionId: arm.versionId };
  // The impact run is read-only and may take a while: it runs before the transaction, as publishing's does.
  const publication: PublishInput | null =
    winner.arm === 'control'
      ? null
      : await checkPublishSafeguard(ctx, {
          book,
          request: { versionId: winner.versionId, environment: row.environment, impactAsOf: request.impactAsOf, confirmation: request.confirmation },
        });

  return withTransaction(ctx, async (tx) => {
    const { db, now, principal } = tx;
    await lockBook(db, book.id);
    const locked = await findExperiment(db, book.id, experimentId, { lock: true });
    if (!locked) throw experimentNotFound(experimentId);
    assertPromotable(locked);
    if (publication) await publishBookVersion(tx, { ...publication, concludesExperiment: true });
    await markConcluded(db, { id: row.id, winnerArm: winner.arm, winnerVersionId: winner.versionId, concludedBy: principal.userId, at: now });
    const view = toExperimentView((await findExperiment(db, book.id, experimentId))!);
    await recordEvent(
      { db, now },
      {
        type: 'experiment.concluded',
        workspaceId: book.workspaceId,
        projectId: book.projectId,
        environmentId: row.environmentId,
        subjectId: row.id,
        data: { experiment: view, winner, concludedBy: principal.userId },
      },
    );
    return view;
  });
}

function assertPromotable(row: ExperimentRow) {
  if (!PROMOTABLE.has(row.state)) {
    throw new ServiceError('conflict', `Experiment ${row.id} is ${row.state}; only a running or stopped one is promoted.`);
  }
}
