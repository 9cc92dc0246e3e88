import { WORKSPACE_PERMISSIONS } from '../auth/permissions';
import { publishedVersionColumns, type PublishedVersionRow } from '../books/store';
import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import { Statement, Table } from '../db/statement';
import { afterTimeIdCursor } from '../db/cursors';
import { signsAt } from '../receipts/store';

/**
 * The accounts' store: the only place with SQL for workspaces, projects and their environments,
 * the account surface's quotes (`account_quotes`) and their commitments. Verbs (one per file in
 * this folder) read as flow over it.
 */

// ---------------------------------------------------------------------------------------------
// Workspaces and projects

export async function insertWorkspace(db: DbOrTx, workspace: { slug: string; name: string }) {
  return db.workspace.create({ data: workspace, select: { id: true, slug: true, name: true } });
}

export async function insertProject(db: DbOrTx, project: { workspaceId: string; name: string; entitlements: string[] }) {
  return db.project.create({ data: project, select: { id: true, workspaceId: true, name: true } });
}

export async function insertEnvironment(db: DbOrTx, projectId: string, kind: 'test' | 'live'): Promise<{ id: string }> {
  return db.environment.create({ data: { projectId, kind }, select: { id: true } });
}

/** The project an account is; throws (Prisma's not-found) when there is none: a key's project always exists. */
export async function findAccountProject(db: DbOrTx, projectId: string) {
  return db.project.findUniqueOrThrow({ where: { id: projectId }, select: { id: true, name: true, entitlements: true } });
}

/** The person's active memberships, oldest first, with their workspaces' projects and environments. */
export async function listMembershipsWithWorkspaces(db: DbOrTx, userId: string) {
  return db.workspaceMember.findMany({
    where: { userId, status: 'active' },
    orderBy: { createdAt: 'asc' },
    select: {
      permissions: true,
      workspace: {
        select: {
          id: true,
          slug: true,
          name: true,
          requestLogRetentionDays: true,
          projects: {
            orderBy: { createdAt: 'asc' },
            select: { id: true, name: true, primaryBookId: true, environments: { orderBy: { kind: 'asc' }, select: { id: true, kind: true } } },
          },
        },
      },
    },
  });
}

/**
 * The admins of each workspace: its active members holding every workspace permission, oldest
 * first. They are whom the portal names when someone needs a permission or a role they lack.
 */
export async function listWorkspaceAdmins(db: DbOrTx, workspaceIds: readonly string[]): Promise<Map<string, WorkspaceAdmin[]>> {
  const rows = await db.workspaceMember.findMany({
    where: { workspaceId: { in: [...new Set(workspaceIds)] }, status: 'active', permissions: { hasEvery: [...WORKSPACE_PERMISSIONS] } },
    orderBy: { createdAt: 'asc' },
    select: { workspaceId: true, user: { select: { name: true, email: true } } },
  });
  const admins = new Map<string, WorkspaceAdmin[]>(workspaceIds.map((id) => [id, []]));
  for (const row of rows) admins.get(row.workspaceId)!.push(row.user);
  return admins;
}

export type WorkspaceAdmin = { name: string | null; email: string };

// One statement: the project's primary book and the version its publication in the environment
// points at, with the experiment running on it; no row when there is no primary book or it is
// not published there.
const ACCOUNT_BOOK_SQL = `SELECT b.key, p.experiment, ${publishedVersionColumns}
  FROM projects pr
  JOIN books b ON b.id = pr.primary_book_id
  JOIN publications p ON p.book_id = b.id AND p.environment_id = $2::uuid
  JOIN book_versions v ON v.id = p.book_version_id
  WHERE pr.id = $1::uuid`;

/** The project's primary book's key and the version published in the environment, if any. */
export async function findAccountBookVersion(
  db: DbOrTx,
  projectId: string,
  environmentId: string,
): Promise<({ key: string; experiment: unknown } & PublishedVersionRow) | null> {
  const [row] = await sqlRows<{ key: string; experiment: unknown } & PublishedVersionRow>(db, ACCOUNT_BOOK_SQL, [projectId, environmentId]);
  return row ?? null;
}

const CONNECTED_BUSINESSES_SQL = `SELECT b.id::text AS id, b.name
  FROM connections c JOIN businesses b ON b.id = c.business_id
  WHERE c.project_id = $1::uuid AND c.status = 'active'
  ORDER BY b.name, b.id`;

/** The businesses an account (project) quotes for: its active connections' businesses. */
export async function listConnectedBusinesses(db: DbOrTx, projectId: string): Promise<{ id: string; name: string }[]> {
  return sqlRows<{ id: string; name: string }>(db, CONNECTED_BUSINESSES_SQL, [projectId]);
}

// ---------------------------------------------------------------------------------------------
// Account quotes and their column map

/** A produced quote as stored; `response` is the answer replayed for its Idempotency-Key. */
export type AccountQuoteRow = {
  id: string;
  projectId: string;
  environmentId: string;
  bookVersionId: string | null;
  idempotencyKey: string;
  /** sha256 of the canonical request: the same key with another fingerprint is a conflict. */
  requestFingerprint: string;
  state: string;
  disposition: string;
  lowCents: number;
  highCents: number;
  response: unknown;
  /** The request (`services`, `context`) as validated. */
  request: unknown;
  apiKeyId: string | null;
  expiresAt: Date | null;
  /** The experiment arm it was priced with (as its signed answer's `experiment`), or null. */
  experiment: unknown;
  createdAt: Date;
};

const accountQuotes = new Table<AccountQuoteRow>('account_quotes', {
  id: ['id', 'uuid'],
  projectId: ['project_id', 'uuid'],
  environmentId: ['environment_id', 'uuid'],
  bookVersionId: ['book_version_id', 'uuid'],
  idempotencyKey: ['idempotency_key', 'text'],
  requestFingerprint: ['request_fingerprint', 'text'],
  state: ['state', 'text'],
  disposition: ['disposition', 'text'],
  // Books allow amounts up to 10^12 minor units: beyond a 32-bit integer.
  lowCents: ['low_cents', 'bigint'],
  highCents: ['high_cents', 'bigint'],
  response: ['response', 'jsonb'],
  request: ['request', 'jsonb'],
  apiKeyId: ['api_key_id', 'uuid'],
  expiresAt: ['expires_at', 'timestamptz'],
  experiment: ['experiment', 'jsonb'],
  createdAt: ['created_at', 'timestamptz'],
});

type AccountQuoteKey = { environmentId: string; idempotencyKey: string };

const FIND_BY_KEY = new Statement<{ key: AccountQuoteKey }>(
  (sql) => `SELECT ${accountQuotes.selectList('aq', ['requestFingerprint', 'response'])} FROM account_quotes aq
     WHERE aq.environment_id = ${sql.param('key', 'environmentId', 'uuid')} AND aq.idempotency_key = ${sql.param('key', 'idempotencyKey', 'text')}`,
);

/** What an Idempotency-Key already names in the environment: its request's digest and answer. */
export async function findAccountQuoteByKey(
  db: DbOrTx,
  key: AccountQuoteKey,
): Promise<Pick<AccountQuoteRow, 'requestFingerprint' | 'response'> | null> {
  const [row] = await sqlRows<Pick<AccountQuoteRow, 'requestFingerprint' | 'response'>>(db, FIND_BY_KEY.text, FIND_BY_KEY.values({ key }));
  return row ?? null;
}

const INSERT_ACCOUNT_QUOTE = new Statement<{ quote: AccountQuoteRow; signer: { kid: string } }>(
  // The receipt signing key is re-checked by the insert itself: a rotation in another process
  // since this one loaded its signer writes nothing, and the quote is signed again.
  (sql) => `WITH signer_holds AS (
       SELECT 1 WHERE EXISTS (SELECT 1 FROM receipt_signing_keys s
         WHERE s.kid = ${sql.param('signer', 'kid', 'text')} AND ${signsAt('s', sql.param('quote', 'createdAt', 'timestamptz'))})
     ), new_quote AS (
       ${sql.insert(accountQuotes, 'quote', { from: 'signer_holds' })}
       ON CONFLICT (environment_id, idempotency_key) DO NOTHING RETURNING id
     )
     SELECT EXISTS (SELECT 1 FROM new_quote) AS inserted, EXISTS (SELECT 1 FROM signer_holds) AS signer_holds`,
);

/**
 * Writes a quote signed with key `signerKid`: `key_taken` when a concurrent request took its
 * Idempotency-Key first, `signer_retired` when that key was rotated out since it signed.
 */
export async function insertAccountQuote(db: DbOrTx, quote: AccountQuoteRow, signerKid: string): Promise<'inserted' | 'key_taken' | 'signer_retired'> {
  const [written] = await sqlRows<{ inserted: boolean; signer_holds: boolean }>(
    db,
    INSERT_ACCOUNT_QUOTE.text,
    INSERT_ACCOUNT_QUOTE.values({ quote, signer: { kid: signerKid } }),
  );
  if (!written.signer_holds) return 'signer_retired';
  return written.inserted ? 'inserted' : 'key_taken';
}

/** What deciding about a quote reads, under its row lock: its state, review, validity and signed answer. */
export type LockedAccountQuote = Pick<AccountQuoteRow, 'id' | 'projectId' | 'environmentId' | 'state' | 'response' | 'expiresAt'> & {
  reviewDecision: string | null;
};

const LOCK_QUOTE = new Statement<{ key: { id: string; environmentId: string | null; projectId: string | null } }>(
  (sql) => `SELECT ${accountQuotes.selectList('aq', ['id', 'projectId', 'environmentId', 'state', 'response', 'expiresAt'])},
       aq.review_decision AS "reviewDecision"
     FROM account_quotes aq
     WHERE aq.id = ${sql.param('key', 'id', 'uuid')}
       AND (${sql.param('key', 'environmentId', 'uuid')} IS NULL OR aq.environment_id = ${sql.param('key', 'environmentId', 'uuid')})
       AND (${sql.param('key', 'projectId', 'uuid')} IS NULL OR aq.project_id = ${sql.param('key', 'projectId', 'uuid')})
     FOR UPDATE`,
);

/**
 * The quote, its row locked until the transaction ends, so that commitments and reviews of it
 * take turns: by its environment (an API key's) or its project (a business's), or null.
 */
export async function lockAccountQuote(
  db: DbOrTx,
  key: { id: string; environmentId?: string; projectId?: string },
): Promise<LockedAccountQuote | null> {
  const [row] = await sqlRows<LockedAccountQuote>(
    db,
    LOCK_QUOTE.text,
    LOCK_QUOTE.values({ key: { id: key.id, environmentId: key.environmentId ?? null, projectId: key.projectId ?? null } }),
  );
  return row ?? null;
}

/** Records the review of a held quote and the state it leads to. */
export async function recordAccountQuoteReview(
  db: DbOrTx,
  review: { id: string; state: string; decision: string; reason: string | null; reviewedBy: string; reviewedAt: Date },
): Promise<void> {
  await db.accountQuote.update({
    where: { id: review.id },
    data: { state: review.state, reviewDecision: review.decision, reviewReason: review.reason, reviewedBy: review.reviewedBy, reviewedAt: review.reviewedAt },
  });
}

const accountQuoteSelect = {
  id: true,
  environmentId: true,
  bookVersionId: true,
  state: true,
  disposition: true,
  lowCents: true,
  highCents: true,
  response: true,
  request: true,
  expiresAt: true,
  reviewDecision: true,
  reviewReason: true,
  reviewedBy: true,
  reviewedAt: true,
  createdAt: true,
  commitments: { select: { id: true, externalRef: true, confirmedAt: true } },
} satisfies Prisma.AccountQuoteSelect;

/** An account quote as its business's views read it. */
export type AccountQuoteRecord = Prisma.AccountQuoteGetPayload<{ select: typeof accountQuoteSelect }>;

export type AccountQuotesQuery = {
  projectId: string;
  environmentId: string;
  state?: string;
  /** `pending`: not reviewed yet; `reviewed`: either decision; else that decision. */
  review?: 'pending' | 'reviewed' | 'approved' | 'declined';
  order: 'oldest' | 'newest';
  limit: number;
  cursor?: string;
};

const REVIEW_FILTER = { pending: null, reviewed: { not: null }, approved: 'approved', declined: 'declined' } as const;

/** A project's quotes in one environment, by state, oldest or newest first, keyset-paginated by (created_at, id). */
export async function listAccountQuotes(db: DbOrTx, query: AccountQuotesQuery): Promise<AccountQuoteRecord[]> {
  const direction = query.order === 'oldest' ? 'asc' : 'desc';
  return db.accountQuote.findMany({
    where: {
      projectId: query.projectId,
      environmentId: query.environmentId,
      ...(query.state ? { state: query.state } : {}),
      ...(query.review ? { reviewDecision: REVIEW_FILTER[query.review] } : {}),
      ...afterTimeIdCursor(query.cursor, direction),
    },
    orderBy: [{ createdAt: direction }, { id: direction }],
    take: query.limit + 1,
    select: accountQuoteSelect,
  });
}

/** One quote of a project, or null. */
export async function findAccountQuote(db: DbOrTx, key: { id: string; projectId: string }): Promise<AccountQuoteRecord | null> {
  return db.accountQuote.findFirst({ where: { id: key.id, projectId: key.projectId }, select: accountQuoteSelect });
}

/** How many of a project's Live quotes wait for review; how many quoted ones expire before `until`. */
export async function countAccountQuotesToActOn(db: DbOrTx, where: { projectId: string; environmentId: string; now: Date; until: Date }) {
  const [held, expiringSoon] = await Promise.all([
    db.accountQuote.count({
      where: { projectId: where.projectId, environmentId: where.environmentId, state: 'awaiting_approval', reviewDecision: null },
    }),
    db.accountQuote.count({
      where: {
        projectId: where.projectId,
        environmentId: where.environmentId,
        state: { in: ['quoted', 'awaiting_approval'] },
        reviewDecision: { not: 'declined' },
        commitments: { none: {} },
        expiresAt: { gt: where.now, lte: where.until },
      },
    }),
  ]);
  return { held, expiringSoon };
}

/** The versions' numbers and their books' keys, by version id. */
export async function findVersionsForViews(db: DbOrTx, versionIds: string[]) {
  return db.bookVersion.findMany({
    where: { id: { in: versionIds } },
    select: { id: true, bookId: true, number: true, artifactHash: true, book: { select: { key: true } } },
  });
}

/** Names and emails of people, by id (who reviewed). */
export async function findPeople(db: DbOrTx, userIds: string[]) {
  return db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } });
}

// ---------------------------------------------------------------------------------------------
// Commitments

const commitmentSelect = { id: true, externalRef: true, confirmedAt: true } satisfies Prisma.CommitmentSelect;

/** What a commitment's view shows. */
export type CommitmentRow = Prisma.CommitmentGetPayload<{ select: typeof commitmentSelect }>;

export async function findCommitment(db: DbOrTx, accountQuoteId: string): Promise<CommitmentRow | null> {
  return db.commitment.findUnique({ where: { accountQuoteId }, select: commitmentSelect });
}

export async function insertCommitment(db: DbOrTx, commitment: { accountQuoteId: string; externalRef: string; confirmedAt: Date }): Promise<CommitmentRow> {
  return db.commitment.create({ data: commitment, select: commitmentSelect });
}
