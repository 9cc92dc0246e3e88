import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import type { Prisma } from '../db/generated/client';
import type { BookSummary } from './schemas';

const summarySelect = {
  id: true,
  projectId: true,
  key: true,
  name: true,
  updatedAt: true,
  draft: true,
  project: { select: { primaryBookId: true } },
  versions: { orderBy: { number: 'desc' }, take: 1, select: { number: true } },
  publications: {
    select: { updatedAt: true, environment: { select: { kind: true } }, bookVersion: { select: { id: true, number: true } } },
  },
} satisfies Prisma.BookSelect;

type SummaryRow = Prisma.BookGetPayload<{ select: typeof summarySelect }>;

function toSummary(row: SummaryRow): BookSummary {
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
    hasDraft: row.draft !== null,
    publications: { test: publication('test'), live: publication('live') },
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Books of the person's workspaces, with what is published where. */
export async function listBooks({ db, principal }: VerbContext<SessionPrincipal>, filter: { projectId?: string }) {
  const rows = await db.book.findMany({
    where: {
      projectId: filter.projectId,
      project: { workspace: { members: { some: { userId: principal.userId, status: 'active' } } } },
    },
    orderBy: { createdAt: 'asc' },
    select: summarySelect,
  });
  return rows.map(toSummary);
}

/** One book with its draft and version history (newest first); the caller has authorized it (requireBook). */
export async function getBook({ db }: VerbContext, { bookId }: { bookId: string }) {
  const row = await db.book.findUniqueOrThrow({
    where: { id: bookId },
    select: {
      ...summarySelect,
      versions: {
        orderBy: { number: 'desc' },
        select: { id: true, number: true, artifactHash: true, createdBy: true, createdAt: true },
      },
    },
  });
  return {
    ...toSummary(row),
    draft: row.draft,
    versions: row.versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString() })),
  };
}

/** One immutable version, with its artifact; the caller has authorized its book (requireBook). */
export async function getBookVersion({ db }: VerbContext, { bookId, versionId }: { bookId: string; versionId: string }) {
  const version = await db.bookVersion.findFirst({
    where: { id: versionId, bookId },
    select: { id: true, bookId: true, number: true, artifactHash: true, artifact: true, createdBy: true, createdAt: true },
  });
  if (!version) throw new ServiceError('not_found', `Version ${versionId} of book ${bookId} does not exist.`);
  return { ...version, createdAt: version.createdAt.toISOString() };
}
