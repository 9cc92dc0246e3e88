import type { DbOrTx } from '../../db/client';
import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';

// ---------------------------------------------------------------------------------------------
// Rows: what the views of a book (read-books.ts) are built from

/** A book with what its summary shows: latest version, draft, what is published where. */
export const bookSummarySelect = {
  id: true,
  projectId: true,
  key: true,
  name: true,
  updatedAt: true,
  draft: true,
  project: { select: { primaryBookId: true } },
  versions: { orderBy: { number: 'desc' }, take: 1, select: { number: true, artifactHash: true } },
  publications: {
    select: { updatedAt: true, environment: { select: { kind: true } }, bookVersion: { select: { id: true, number: true } } },
  },
} satisfies Prisma.BookSelect;

export type BookSummaryRow = Prisma.BookGetPayload<{ select: typeof bookSummarySelect }>;

/** A summary with the whole version history, newest first. */
const bookDetailSelect = {
  ...bookSummarySelect,
  versions: {
    orderBy: { number: 'desc' },
    select: { id: true, number: true, artifactHash: true, createdBy: true, createdAt: true },
  },
} satisfies Prisma.BookSelect;

export type BookDetailRow = Prisma.BookGetPayload<{ select: typeof bookDetailSelect }>;

/** Where a book lives: what authorizing a request on it needs. */
export type BookTenancy = { id: string; projectId: string; workspaceId: string };

// ---------------------------------------------------------------------------------------------
// Reading books

export async function findBookTenancy(db: DbOrTx, bookId: string): Promise<BookTenancy | null> {
  const book = await db.book.findUnique({
    where: { id: bookId },
    select: { id: true, projectId: true, project: { select: { workspaceId: true } } },
  });
  return book && { id: book.id, projectId: book.projectId, workspaceId: book.project.workspaceId };
}

/** Whether the user is an active member of a business with an active connection to the project. */
export async function quotesFromProject(db: DbOrTx, userId: string, projectId: string): Promise<boolean> {
  const rows = await sqlRows<{ one: number }>(
    db,
    `SELECT 1 AS one FROM business_members m JOIN connections c ON c.business_id = m.business_id
      WHERE m.user_id = $1::uuid AND m.status = 'active' AND c.project_id = $2::uuid AND c.status = 'active' LIMIT 1`,
    [userId, projectId],
  );
  return rows.length > 0;
}

/** The workspace of a project, or null when there is no such project. */
export async function findProjectWorkspaceId(db: DbOrTx, projectId: string): Promise<string | null> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { workspaceId: true } });
  return project?.workspaceId ?? null;
}

/** Books of the workspaces the user is an active member of, oldest first. */
export async function listBooksOfMember(db: DbOrTx, userId: string, projectId: string | undefined): Promise<BookSummaryRow[]> {
  return db.book.findMany({
    where: { projectId, project: { workspace: { members: { some: { userId, status: 'active' } } } } },
    orderBy: { createdAt: 'asc' },
    select: bookSummarySelect,
  });
}

/** The book with its draft and versions; throws when it does not exist (callers authorized it). */
export async function findBookDetail(db: DbOrTx, bookId: string): Promise<BookDetailRow> {
  return db.book.findUniqueOrThrow({ where: { id: bookId }, select: bookDetailSelect });
}

/** The book's draft (null when none); throws when the book does not exist (callers authorized it). */
export async function readDraft(db: DbOrTx, bookId: string): Promise<unknown> {
  return (await db.book.findUniqueOrThrow({ where: { id: bookId }, select: { draft: true } })).draft;
}

// ---------------------------------------------------------------------------------------------
// Writing books

export async function insertBook(db: DbOrTx, book: { projectId: string; key: string; name: string }) {
  return db.book.create({
    data: { projectId: book.projectId, key: book.key, name: book.name },
    select: { id: true, projectId: true, key: true, name: true, createdAt: true },
  });
}

/** Whether an insert failed on a unique index: for books, (project, key) is taken. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

export async function setPrimaryBook(db: DbOrTx, projectId: string, bookId: string): Promise<void> {
  await db.project.update({ where: { id: projectId }, data: { primaryBookId: bookId } });
}

export async function writeDraft(db: DbOrTx, bookId: string, artifact: unknown): Promise<void> {
  await db.book.update({ where: { id: bookId }, data: { draft: artifact as object } });
}

/**
 * Locks the book's row until the transaction ends; false when there is no such book. Versions
 * and publications of one book take turns on it.
 */
export async function lockBook(db: DbOrTx, bookId: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM books WHERE id = ${bookId}::uuid FOR UPDATE`;
  return rows.length > 0;
}
