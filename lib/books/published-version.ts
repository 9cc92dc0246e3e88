import type { DbOrTx } from '../db/client';
import type { CompiledBook } from '../pricing';
import { compiled, findPublishedVersionRow, findVersionRow, type PublishedVersionRow } from './store';

// What the quote path prices with, from the store: callers elsewhere (quotes, accounts,
// businesses, the hosted page) import it from here.
export { compiled, publishedVersionColumns, type PublishedVersionRow } from './store';

/** A published version with its compiled book. */
export type PublishedVersion = PublishedVersionRow & { book: CompiledBook };

/** The row with its compiled book (from the process memory, or read once). */
export async function withCompiledBook(db: DbOrTx, row: PublishedVersionRow): Promise<PublishedVersion> {
  return { ...row, book: await compiled(db, row.id) };
}

/** The version the (book, environment) publication points at now, or null when none. */
export async function findPublishedVersion(db: DbOrTx, bookId: string, environmentId: string): Promise<PublishedVersion | null> {
  const row = await findPublishedVersionRow(db, bookId, environmentId);
  return row ? withCompiledBook(db, row) : null;
}

/** A version of the book by id with its compiled book (an experiment's arm), or null when the book has none. */
export async function findBookVersion(db: DbOrTx, bookId: string, versionId: string): Promise<PublishedVersion | null> {
  const row = await findVersionRow(db, bookId, versionId);
  return row ? withCompiledBook(db, row) : null;
}
