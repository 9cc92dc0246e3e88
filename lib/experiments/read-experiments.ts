import type { BookTenancy } from '../books/store';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { toExperimentView } from './running-experiment';
import type { ExperimentView } from './schemas';
import { findExperiment, findExperiments } from './store';

/** The book's experiments, newest first (both environments). */
export async function listExperiments(ctx: Pick<VerbContext, 'db'>, book: BookTenancy): Promise<ExperimentView[]> {
  return (await findExperiments(ctx.db, book.id)).map(toExperimentView);
}

/** One experiment of the book: its published definition (id, salt, arms). Another book's answers 404. */
export async function getExperiment(ctx: Pick<VerbContext, 'db'>, book: BookTenancy, experimentId: string): Promise<ExperimentView> {
  const row = await findExperiment(ctx.db, book.id, experimentId);
  if (!row) throw experimentNotFound(experimentId);
  return toExperimentView(row);
}

export const experimentNotFound = (experimentId: string) => new ServiceError('not_found', `Experiment ${experimentId} does not exist.`);
