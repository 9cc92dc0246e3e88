import { randomBytes } from 'node:crypto';
import type { SessionPrincipal } from '../auth/principal';
import type { BookTenancy } from '../books/store';
import { environmentIdOf } from '../books/store';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { toExperimentView } from './running-experiment';
import type { CreateExperimentRequest, ExperimentView } from './schemas';
import { findExperiment, insertExperiment, versionsOfBook } from './store';

/**
 * A draft experiment on the book in one environment: its variants are versions of the same book,
 * its salt is drawn now and never changes (assignment is keyed by it). The control is not chosen
 * here: it is the environment's publication when the experiment starts.
 */
export async function createExperiment(
  ctx: VerbContext<SessionPrincipal>,
  { book, request }: { book: BookTenancy; request: CreateExperimentRequest },
): Promise<ExperimentView> {
  const { db, now, principal } = ctx;
  const versionIds = request.variants.map((v) => v.versionId);
  const ofBook = await versionsOfBook(db, book.id, versionIds);
  const foreign = versionIds.filter((id) => !ofBook.has(id));
  if (foreign.length > 0) {
    throw new ServiceError('invalid_request', `A variant must be a version of book ${book.id}; ${foreign.join(', ')} is not.`, {
      details: { fields: { variants: [`Not a version of this book: ${foreign.join(', ')}.`] } },
    });
  }
  const environmentId = await environmentIdOf(db, book.projectId, request.environment);
  const id = await insertExperiment(db, {
    bookId: book.id,
    environmentId,
    name: request.name,
    salt: randomBytes(16).toString('hex'),
    primaryMetric: request.primaryMetric,
    weightUnit: request.weightUnit,
    controlWeight: request.controlWeight,
    variants: request.variants.map((v, i) => ({ name: `variant_${i + 1}`, versionId: v.versionId, weight: v.weight })),
    offeringIds: request.offeringIds ?? [],
    surfaces: request.surfaces,
    maxPriceDifferencePercent: request.maxPriceDifferencePercent,
    pauseWhenAcceptanceDropsPoints: request.pauseWhenAcceptanceDropsPoints,
    createdBy: principal.userId,
    createdAt: now,
  });
  return toExperimentView((await findExperiment(db, book.id, id))!);
}
