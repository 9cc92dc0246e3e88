import type { ApiKeyPrincipal } from '../auth/principal';
import { publishedVersionColumns, withCompiledBook, type PublishedVersion, type PublishedVersionRow } from '../books/published-version';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import { ServiceError } from '../errors/service-error';

export type AccountBook = { key: string; version: PublishedVersion };

// One statement: the project's primary book and the version its publication in the key's
// environment points at; no row when there is no primary book or it is not published there.
const ACCOUNT_BOOK_SQL = `SELECT b.key, ${publishedVersionColumns}
  FROM projects pr
  JOIN books b ON b.id = pr.primary_book_id
  JOIN publications p ON p.book_id = b.id AND p.environment_id = $2::uuid
  JOIN book_versions v ON v.id = p.book_version_id
  WHERE pr.id = $1::uuid`;

/** The account's book as the key's environment sees it: the project's primary book, published there. */
async function findAccountBook(db: DbOrTx, principal: ApiKeyPrincipal): Promise<AccountBook | null> {
  const [row] = await sqlRows<{ key: string } & PublishedVersionRow>(db, ACCOUNT_BOOK_SQL, [principal.projectId, principal.environmentId]);
  if (!row) return null;
  const { key, ...version } = row;
  return { key, version: await withCompiledBook(db, version) };
}

/**
 * The account's book, or 404 `not_found`: quote-spec, simulations and quotes all answer the same
 * way when nothing is published in the key's environment (docs/account-surface.md).
 */
export async function requireAccountBook({ db, principal }: VerbContext<ApiKeyPrincipal>): Promise<AccountBook> {
  const book = await findAccountBook(db, principal);
  if (!book) throw new ServiceError('not_found', 'No price book is published in this environment.');
  return book;
}
