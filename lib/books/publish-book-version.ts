import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import type { EnvironmentName } from '../auth/principal';
import type { ImpactSummary } from './impact-schemas';
import {
  environmentIdOf,
  experimentOnPublication,
  findVersionOfBook,
  insertPublicationRecord,
  lockBook,
  publishedVersionIdOf,
  upsertPublication,
} from './store';

export type PublishInput = {
  bookId: string;
  versionId: string;
  environment: EnvironmentName;
  /** Who published and what they were shown; the system publishes without (seed, provisioning). */
  publishedBy?: string;
  impact?: ImpactSummary;
  confirmation?: string;
  /**
   * Promoting an experiment's arm publishes as it concludes the experiment; any other publication
   * is refused while an experiment runs in the environment (its quotes are priced with its arms,
   * so a new publication would not reach them: docs/experiments.md, "Publishing while it runs").
   */
  concludesExperiment?: boolean;
};

/**
 * Points the book's publication in one environment at a version: the only way a price
 * changes. The `book_version.published` event and the publication's audit record commit with
 * the pointer; publications of one book take turns on its row, so each record names the
 * version it replaced.
 */
export async function publishBookVersion(ctx: VerbContext, input: PublishInput) {
  const { now } = ctx;
  return withTransaction(ctx, async ({ db: tx }) => {
    await lockBook(tx, input.bookId);
    const version = await findVersionOfBook(tx, input.bookId, input.versionId);
    if (!version) throw new ServiceError('not_found', `Version ${input.versionId} of book ${input.bookId} does not exist.`);
    const environmentId = await environmentIdOf(tx, version.projectId, input.environment);
    const running = input.concludesExperiment ? null : await experimentOnPublication(tx, input.bookId, environmentId);
    if (running) {
      throw new ServiceError(
        'conflict',
        `Experiment “${running.name}” is running on this book in ${input.environment === 'live' ? 'Live' : 'Test'}: its quotes are priced with its versions, so a new publication would not reach them. Stop the experiment, or promote the version that should win, first.`,
        { details: { experimentId: running.id } },
      );
    }
    const previousVersionId = await publishedVersionIdOf(tx, input.bookId, environmentId);
    const publication = await upsertPublication(tx, { bookId: input.bookId, environmentId, bookVersionId: version.id, updatedAt: now });
    await insertPublicationRecord(tx, {
      bookId: input.bookId,
      environmentId,
      bookVersionId: version.id,
      previousVersionId,
      publishedBy: input.publishedBy ?? null,
      impact: input.impact,
      confirmation: input.confirmation ?? null,
      createdAt: now,
    });
    await recordEvent(
      { db: tx, now },
      {
        type: 'book_version.published',
        workspaceId: version.workspaceId,
        projectId: version.projectId,
        environmentId,
        subjectId: version.id,
        data: {
          bookId: input.bookId,
          bookVersionId: version.id,
          number: version.number,
          artifactHash: version.artifactHash,
          environment: input.environment,
        },
      },
    );
    return publication;
  });
}
