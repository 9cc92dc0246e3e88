import { LRUCache } from 'lru-cache';
import type { DbOrTx } from '../db/client';
import { bookArtifactSchema, compileBook, type CompiledBook } from '../pricing';

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
    compiled = compileBook(bookArtifactSchema.parse(artifact));
    compiledVersions.set(id, compiled);
  }
  return compiled;
}

const versionFields = { id: true, bookId: true, number: true, artifactHash: true } as const;

/** The version the (book, environment) publication points at now, or null when none. */
export async function findPublishedVersion(
  db: DbOrTx,
  bookId: string,
  environmentId: string,
): Promise<PublishedVersion | null> {
  const publication = await db.publication.findUnique({
    where: { bookId_environmentId: { bookId, environmentId } },
    select: { bookVersion: { select: versionFields } },
  });
  if (!publication) return null;
  const version = publication.bookVersion;
  return { ...version, book: await compiled(db, version.id) };
}

/** A version's compiled book: from the process cache, or read once (versions are immutable). */
export async function compiled(db: DbOrTx, versionId: string): Promise<CompiledBook> {
  const cached = compiledVersions.get(versionId);
  if (cached) return cached;
  const { artifact } = await db.bookVersion.findUniqueOrThrow({ where: { id: versionId }, select: { artifact: true } });
  return compiledVersion(versionId, artifact);
}
