import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import type { Db, DbOrTx } from '../db/client';
import { Prisma } from '../db/generated/client';
import { issuesByField } from '../errors/parse-or-throw';
import { ServiceError } from '../errors/service-error';
import { bookArtifactSchema, compileBook, evaluate } from '../pricing';
import { createBook } from './create-book';
import { createBookVersion } from './create-book-version';
import { getBook } from './read-books';

/** POST /v1/books (`books:edit`). */
export async function createBookAsMember(
  db: Db,
  principal: SessionPrincipal,
  input: { projectId: string; key: string; name: string; makePrimary?: boolean },
) {
  const project = await db.project.findUnique({ where: { id: input.projectId }, select: { workspaceId: true } });
  if (!project) throw new ServiceError('not_found', `Project ${input.projectId} does not exist.`);
  await requireWorkspaceMember(db, principal, project.workspaceId, 'books:edit', `Project ${input.projectId} does not exist.`);
  const book = await createBook(db, input).catch((error: unknown) => {
    // The (project, key) unique index decides, also between two requests at the same moment.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new ServiceError('conflict', `The project already has a book with key "${input.key}".`);
    }
    throw error;
  });
  return getBook(db, book.id);
}

/** What is wrong with an artifact, by field; empty when it would publish. */
function artifactIssues(artifact: unknown): Record<string, string[]> {
  const result = bookArtifactSchema.safeParse(artifact);
  return result.success ? {} : issuesByField(result.error, 'artifact');
}

/** PUT /v1/books/{id}/draft (`books:edit`, checked by the route): keeps any JSON object as work in progress. */
export async function saveDraft(db: DbOrTx, bookId: string, artifact: unknown) {
  await db.book.update({ where: { id: bookId }, data: { draft: artifact as object } });
  const issues = artifactIssues(artifact);
  return { valid: Object.keys(issues).length === 0, issues };
}

/** POST /v1/books/{id}/preview (any workspace member, checked by the route): prices against a draft, storing nothing. */
export async function previewDraft(
  db: DbOrTx,
  bookId: string,
  request: { artifact?: unknown; offeringId: string; factors: Record<string, string | null> },
) {
  const artifact =
    request.artifact !== undefined
      ? request.artifact
      : (await db.book.findUniqueOrThrow({ where: { id: bookId }, select: { draft: true } })).draft;
  const parsed = bookArtifactSchema.safeParse(artifact);
  if (!parsed.success) {
    return { valid: false, issues: issuesByField(parsed.error, 'artifact'), outcome: null, computation: null, missingInputs: [], failure: null };
  }
  const outcome = evaluate(compileBook(parsed.data), { offeringId: request.offeringId, factors: request.factors });
  return {
    valid: true,
    issues: {},
    outcome: outcome.outcome,
    computation: outcome.outcome === 'succeeded' ? outcome.computation : null,
    missingInputs: outcome.outcome === 'requires_input' ? outcome.missingInputs : [],
    failure: outcome.outcome === 'failed' ? outcome.failure : null,
  };
}

/** POST /v1/books/{id}/versions (`books:publish`, checked by the route): freezes the given artifact, or the draft. */
export async function createVersionAsMember(
  db: Db,
  principal: SessionPrincipal,
  bookId: string,
  artifact: unknown | undefined,
  now: Date,
) {
  const source =
    artifact !== undefined ? artifact : (await db.book.findUniqueOrThrow({ where: { id: bookId }, select: { draft: true } })).draft;
  if (source === null) throw new ServiceError('invalid_request', 'There is no draft to publish: send an artifact.');
  // Versions created at the same moment take turns on the book's row (createBookVersion).
  const version = await createBookVersion(db, { bookId, artifact: source, createdBy: principal.email }, now);
  return { ...version, createdBy: principal.email, createdAt: version.createdAt.toISOString() };
}
