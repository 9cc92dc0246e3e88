import { LRUCache } from 'lru-cache';
import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';
import { Table } from '../../db/statement';
import { compileBook, storedBookArtifactSchema, type BookArtifact, type CompiledBook } from '../../pricing';

// ---------------------------------------------------------------------------------------------
// Rows and their column map

/** A book version as stored: immutable once written (the database refuses changes). */
export type BookVersionRow = {
  id: string;
  bookId: string;
  number: number;
  /** Stored as `json`, the text kept exactly as published. */
  artifact: unknown;
  /** sha256 (hex) of the artifact's canonical JSON. */
  artifactHash: string;
  createdBy: string | null;
  createdAt: Date;
};

const bookVersions = new Table<BookVersionRow>('book_versions', {
  id: ['id', 'uuid'],
  bookId: ['book_id', 'uuid'],
  number: ['number', 'int'],
  artifact: ['artifact', 'json'],
  artifactHash: ['artifact_hash', 'text'],
  createdBy: ['created_by', 'text'],
  createdAt: ['created_at', 'timestamptz'],
});

/** `json_build_object` of a version's id, number and artifact hash from `book_versions <alias>` (a quote's trace shows them). */
export const versionSummaryJson = (alias: string) => bookVersions.jsonObject(alias, ['id', 'number', 'artifactHash']);

/** What a new version's insert answers. */
export type CreatedBookVersion = Pick<BookVersionRow, 'id' | 'bookId' | 'number' | 'artifactHash' | 'createdAt'>;

/** A published version's row, as `publishedVersionColumns` selects it from `book_versions v`. */
export type PublishedVersionRow = Pick<BookVersionRow, 'id' | 'bookId' | 'number' | 'artifactHash'>;

/** The columns of `book_versions v` that make a `PublishedVersionRow` (other stores join on it). */
export const publishedVersionColumns = bookVersions.selectList('v', ['id', 'bookId', 'number', 'artifactHash']);

// ---------------------------------------------------------------------------------------------
// Reading versions

/** One version of the book, with its artifact; null when the book has no such version. */
export async function findVersion(db: DbOrTx, bookId: string, versionId: string): Promise<BookVersionRow | null> {
  return db.bookVersion.findFirst({
    where: { id: versionId, bookId },
    select: { id: true, bookId: true, number: true, artifactHash: true, artifact: true, createdBy: true, createdAt: true },
  });
}

/** One version of the book, without its artifact, and where the book lives; null when none. */
export async function findVersionOfBook(db: DbOrTx, bookId: string, versionId: string) {
  const version = await db.bookVersion.findFirst({
    where: { id: versionId, bookId },
    select: { id: true, number: true, artifactHash: true, book: { select: { projectId: true, project: { select: { workspaceId: true } } } } },
  });
  if (!version) return null;
  const { book, ...row } = version;
  return { ...row, projectId: book.projectId, workspaceId: book.project.workspaceId };
}

/** The highest version number of the book, or null before its first version. */
export async function latestVersionNumber(db: DbOrTx, bookId: string): Promise<number | null> {
  const latest = await db.bookVersion.findFirst({ where: { bookId }, orderBy: { number: 'desc' }, select: { number: true } });
  return latest?.number ?? null;
}

/** The numbers of the given versions, by id. */
export async function versionNumbers(db: DbOrTx, versionIds: readonly string[]): Promise<Map<string, number>> {
  if (versionIds.length === 0) return new Map();
  const rows = await sqlRows<{ id: string; number: number }>(
    db,
    `SELECT id::text AS id, number FROM book_versions WHERE id = ANY($1::uuid[])`,
    [versionIds],
  );
  return new Map(rows.map((r) => [r.id, r.number]));
}

const PUBLISHED_VERSION_SQL = `SELECT ${publishedVersionColumns}
  FROM publications p JOIN book_versions v ON v.id = p.book_version_id
  WHERE p.book_id = $1::uuid AND p.environment_id = $2::uuid`;

/** A version of the book by id, as `publishedVersionColumns` reads it (an experiment's arm); null when the book has none. */
export async function findVersionRow(db: DbOrTx, bookId: string, versionId: string): Promise<PublishedVersionRow | null> {
  const [row] = await sqlRows<PublishedVersionRow>(db, `SELECT ${publishedVersionColumns} FROM book_versions v WHERE v.id = $1::uuid AND v.book_id = $2::uuid`, [
    versionId,
    bookId,
  ]);
  return row ?? null;
}

/** The version the (book, environment) publication points at now, or null when none. */
export async function findPublishedVersionRow(db: DbOrTx, bookId: string, environmentId: string): Promise<PublishedVersionRow | null> {
  const [row] = await sqlRows<PublishedVersionRow>(db, PUBLISHED_VERSION_SQL, [bookId, environmentId]);
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// Writing a version

export async function insertVersion(
  db: DbOrTx,
  version: Pick<BookVersionRow, 'bookId' | 'number' | 'artifactHash' | 'createdAt'> & { artifact: BookArtifact; createdBy?: string },
): Promise<CreatedBookVersion> {
  return db.bookVersion.create({
    data: version,
    select: { id: true, bookId: true, number: true, artifactHash: true, createdAt: true },
  });
}

// ---------------------------------------------------------------------------------------------
// Compiled versions, remembered

// Versions never change once written, so a compiled version needs no re-check and is kept for
// the life of the process. Bounded so that a long-lived process stays small.
const compiledVersions = new LRUCache<string, CompiledBook>({ max: 500 });

/** A version's compiled book: from the process memory, or read and compiled once. */
export async function compiled(db: DbOrTx, versionId: string): Promise<CompiledBook> {
  const cached = compiledVersions.get(versionId);
  if (cached) return cached;
  const { artifact } = await db.bookVersion.findUniqueOrThrow({ where: { id: versionId }, select: { artifact: true } });
  // Another caller may have compiled it while this one read: keep the first.
  let book = compiledVersions.get(versionId);
  if (!book) {
    book = compileBook(storedBookArtifactSchema.parse(artifact));
    compiledVersions.set(versionId, book);
  }
  return book;
}
