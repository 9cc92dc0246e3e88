import type { ApiKeyPrincipal } from '../auth/principal';
import { findPublishedVersion, type PublishedVersion } from '../books/published-version';
import type { DbOrTx } from '../db/client';

/** The account's book as the key's environment sees it: the project's primary book, published there. */
export async function findAccountBook(
  db: DbOrTx,
  principal: ApiKeyPrincipal,
): Promise<{ key: string; version: PublishedVersion } | null> {
  const project = await db.project.findUniqueOrThrow({
    where: { id: principal.projectId },
    select: { primaryBook: { select: { id: true, key: true } } },
  });
  if (!project.primaryBook) return null;
  const version = await findPublishedVersion(db, project.primaryBook.id, principal.environmentId);
  return version ? { key: project.primaryBook.key, version } : null;
}
