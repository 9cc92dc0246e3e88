import { LRUCache } from 'lru-cache';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { compileBook, storedBookArtifactSchema, type CompiledBook } from '../pricing';

export type PublishedVersion = {
  id: string;
  bookId: string;
  number: number;
  artifactHash: string;
  book: CompiledBook;
};

// Book versions never change once written (the database refuses it), so a compiled version
// can be kept for the life of the process. Bounded so that a long-lived process stays small.
const compiledVersions = new LRUCache<string, CompiledBook>({ max: 500 });

function compiledVersion(id: string, artifact: unknown): CompiledBook {
  let compiled = compiledVersions.get(id);
  if (!compiled) {
    compiled = compileBook(storedBookArtifactSchema.parse(artifact));
    compiledVersions.set(id, compiled);
  }
  return compiled;
}

/** A published version's row, as `publishedVersionColumns` selects it from `book_versions v`. */
export type PublishedVersionRow = { id: string; bookId: string; number: number; artifactHash: string };

/** The columns of `book_versions v` that make a `PublishedVersionRow`. */
export const publishedVersionColumns = 'v.id::text AS id, v.book_id::text AS "bookId", v.number, v.artifact_hash AS "artifactHash"';

/** The row with its compiled book (from the process cache, or read once). */
export async function withCompiledBook(db: DbOrTx, row: PublishedVersionRow): Promise<PublishedVersion> {
  return { ...row, book: await compiled(db, row.id) };
}

const PUBLISHED_VERSION_SQL = `SELECT ${publishedVersionColumns}
  FROM publications p JOIN book_versions v ON v.id = p.book_version_id
  WHERE p.book_id = $1::uuid AND p.environment_id = $2::uuid`;

/** The version the (book, environment) publication points at now, or null when none. */
export async function findPublishedVersion(
  db: DbOrTx,
  bookId: string,
  environmentId: string,
): Promise<PublishedVersion | null> {
  const [row] = await sqlRows<PublishedVersionRow>(db, PUBLISHED_VERSION_SQL, [bookId, environmentId]);
  return row ? withCompiledBook(db, row) : null;
}

/** A version's compiled book: from the process cache, or read once (versions are immutable). */
export async function compiled(db: DbOrTx, versionId: string): Promise<CompiledBook> {
  const cached = compiledVersions.get(versionId);
  if (cached) return cached;
  const { artifact } = await db.bookVersion.findUniqueOrThrow({ where: { id: versionId }, select: { artifact: true } });
  return compiledVersion(versionId, artifact);
}
