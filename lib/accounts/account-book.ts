import type { ApiKeyPrincipal } from '../auth/principal';
import { withCompiledBook, type PublishedVersion } from '../books/published-version';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { findAccountBookVersion } from './store';
import { parseRunningExperiment, type RunningExperiment } from '../experiments/running-experiment';

export type AccountBook = { key: string; version: PublishedVersion };
/** The published book, and the experiment running on its publication (its definition), if any. */
export type PublishedAccountBook = AccountBook & { experiment: RunningExperiment | null };

/**
 * The account's book as the key's environment sees it (the project's primary book, published
 * there), or 404 `not_found`: quote-spec, simulations and quotes all answer the same way when
 * nothing is published in the key's environment (docs/account-surface.md).
 */
export async function requireAccountBook({ db, principal }: VerbContext<ApiKeyPrincipal>): Promise<PublishedAccountBook> {
  const row = await findAccountBookVersion(db, principal.projectId, principal.environmentId);
  if (!row) throw new ServiceError('not_found', 'No price book is published in this environment.');
  const { key, experiment, ...version } = row;
  return { key, version: await withCompiledBook(db, version), experiment: parseRunningExperiment(experiment) };
}
