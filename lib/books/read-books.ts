import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { canonicalHash } from '../hash/canonical-hash';
import { bookArtifactSchema } from '../pricing';
import type { z } from 'zod';
import type { BookSummary, draftArtifactSchema } from './schemas';
import { findBookDetail, findVersion, listBooksOfMember, type BookSummaryRow } from './store';

/**
 * Whether the saved draft says something the newest version does not: a draft that became a
 * version unchanged is not "a draft" any more (the same canonical hash as the version).
 */
function draftDiffers(draft: unknown, newest: { artifactHash: string } | undefined): boolean {
  if (draft === null) return false;
  if (!newest) return true;
  const parsed = bookArtifactSchema.safeParse(draft);
  return !parsed.success || canonicalHash(parsed.data) !== newest.artifactHash;
}

function toSummary(row: BookSummaryRow): BookSummary {
  const publication = (kind: 'test' | 'live') => {
    const p = row.publications.find((x) => x.environment.kind === kind);
    return p ? { versionId: p.bookVersion.id, number: p.bookVersion.number, publishedAt: p.updatedAt.toISOString() } : null;
  };
  return {
    id: row.id,
    projectId: row.projectId,
    key: row.key,
    name: row.name,
    isPrimary: row.project.primaryBookId === row.id,
    latestVersion: row.versions[0]?.number ?? null,
    hasDraft: draftDiffers(row.draft, row.versions[0]),
    publications: { test: publication('test'), live: publication('live') },
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Books of the person's workspaces, with what is published where. */
export async function listBooks({ db, principal }: VerbContext<SessionPrincipal>, filter: { projectId?: string }) {
  const rows = await listBooksOfMember(db, principal.userId, filter.projectId);
  return rows.map(toSummary);
}

/** One book with its draft and version history (newest first); the caller has authorized it (requireBook). */
export async function getBook({ db }: VerbContext, { bookId }: { bookId: string }) {
  const row = await findBookDetail(db, bookId);
  return {
    ...toSummary(row),
    // Only ever saved from the request's draftArtifactSchema (a JSON object) or cleared.
    draft: row.draft as z.infer<typeof draftArtifactSchema> | null,
    versions: row.versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString() })),
  };
}

/** One immutable version, with its artifact; the caller has authorized its book (requireBook). */
export async function getBookVersion({ db }: VerbContext, { bookId, versionId }: { bookId: string; versionId: string }) {
  const version = await findVersion(db, bookId, versionId);
  if (!version) throw new ServiceError('not_found', `Version ${versionId} of book ${bookId} does not exist.`);
  return { ...version, createdAt: version.createdAt.toISOString() };
}
