import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import type { EnvironmentName } from '../auth/principal';
import type { ImpactSummary } from './impact-schemas';

export type PublishInput = {
  bookId: string;
  versionId: string;
  environment: EnvironmentName;
  /** Who published and what they were shown; the system publishes without (seed, provisioning). */
  publishedBy?: string;
  impact?: ImpactSummary;
  confirmation?: string;
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
    await tx.$queryRaw`SELECT id FROM books WHERE id = ${input.bookId}::uuid FOR UPDATE`;
    const version = await tx.bookVersion.findFirst({
      where: { id: input.versionId, bookId: input.bookId },
      select: { id: true, number: true, artifactHash: true, book: { select: { projectId: true, project: { select: { workspaceId: true } } } } },
    });
    if (!version) throw new ServiceError('not_found', `Version ${input.versionId} of book ${input.bookId} does not exist.`);
    const environment = await tx.environment.findUniqueOrThrow({
      where: { projectId_kind: { projectId: version.book.projectId, kind: input.environment } },
      select: { id: true },
    });
    const previous = await tx.publication.findUnique({
      where: { bookId_environmentId: { bookId: input.bookId, environmentId: environment.id } },
      select: { bookVersionId: true },
    });
    const publication = await tx.publication.upsert({
      where: { bookId_environmentId: { bookId: input.bookId, environmentId: environment.id } },
      create: { bookId: input.bookId, environmentId: environment.id, bookVersionId: version.id, updatedAt: now },
      update: { bookVersionId: version.id, updatedAt: now },
      select: { id: true, bookId: true, environmentId: true, bookVersionId: true, updatedAt: true },
    });
    await tx.publicationRecord.create({
      data: {
        bookId: input.bookId,
        environmentId: environment.id,
        bookVersionId: version.id,
        previousVersionId: previous?.bookVersionId ?? null,
        publishedBy: input.publishedBy ?? null,
        impact: input.impact,
        confirmation: input.confirmation ?? null,
        createdAt: now,
      },
    });
    await recordEvent(
      { db: tx, now },
      {
        type: 'book_version.published',
        workspaceId: version.book.project.workspaceId,
        projectId: version.book.projectId,
        environmentId: environment.id,
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
