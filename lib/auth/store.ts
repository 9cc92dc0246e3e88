import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { MembershipStatus } from '../db/generated/enums';
import { sqlRows } from '../db/sql';
import { Statement } from '../db/statement';
import type { WorkspacePermission } from './permissions';

/**
 * The auth store: the only place with SQL for the people next-auth signs in, their account
 * links and sessions, and the memberships that authorization reads. A session token reaches it
 * only as its sha256 digest (secret-digest.ts): the token itself is never stored.
 */

// ---------------------------------------------------------------------------------------------
// People and their account links (next-auth)

const userSelect = { id: true, name: true, email: true, emailVerified: true, image: true } satisfies Prisma.UserSelect;

export type UserRow = Prisma.UserGetPayload<{ select: typeof userSelect }>;

/** The user with this email: created, or the existing row (an invited person's) adopted. */
export async function upsertUserByEmail(
  db: DbOrTx,
  user: { email: string; name?: string | null; emailVerified: Date | null; image?: string | null },
): Promise<UserRow> {
  return db.user.upsert({
    where: { email: user.email },
    create: { email: user.email, name: user.name ?? null, emailVerified: user.emailVerified, image: user.image ?? null },
    update: { name: user.name ?? undefined, emailVerified: user.emailVerified },
    select: userSelect,
  });
}

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | null> {
  return db.user.findUnique({ where: { id }, select: userSelect });
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  return db.user.findUnique({ where: { email }, select: userSelect });
}

/** The user an identity provider's account is linked to, or null. */
export async function findUserByAccount(db: DbOrTx, provider: string, providerAccountId: string): Promise<UserRow | null> {
  const account = await db.oAuthAccount.findUnique({
    where: { provider_providerAccountId: { provider, providerAccountId } },
    select: { user: { select: userSelect } },
  });
  return account?.user ?? null;
}

/** Changes the fields given (undefined ones stay as they are). */
export async function updateUser(
  db: DbOrTx,
  id: string,
  change: { name?: string | null; emailVerified?: Date | null; image?: string | null },
): Promise<UserRow> {
  return db.user.update({ where: { id }, data: change, select: userSelect });
}

export async function insertAccountLink(db: DbOrTx, link: { userId: string; type: string; provider: string; providerAccountId: string }) {
  await db.oAuthAccount.create({ data: link });
}

// ---------------------------------------------------------------------------------------------
// Sessions, by token digest

export async function insertSession(db: DbOrTx, session: { tokenDigest: string; userId: string; expires: Date }): Promise<void> {
  await db.session.create({ data: { sessionToken: session.tokenDigest, userId: session.userId, expires: session.expires } });
}

// On every signed-in request: one prepared statement, not a Prisma query (its engine costs more
// CPU than the read itself).
const SESSION_WITH_USER = new Statement<{ session: { tokenDigest: string } }>(
  (sql) => `SELECT s.id::text AS id, s.user_id::text AS "userId", s.expires, u.name, u.email, u.email_verified AS "emailVerified", u.image
    FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.session_token = ${sql.param('session', 'tokenDigest', 'text')}`,
);

type SessionWithUserRow = { id: string; userId: string; expires: Date; name: string | null; email: string; emailVerified: Date | null; image: string | null };

/** The session a digest names, with its user, or null; expired or not (the caller decides). */
export async function findSessionWithUser(db: DbOrTx, tokenDigest: string): Promise<{ id: string; userId: string; expires: Date; user: UserRow } | null> {
  const [row] = await sqlRows<SessionWithUserRow>(db, SESSION_WITH_USER.text, SESSION_WITH_USER.values({ session: { tokenDigest } }));
  if (!row) return null;
  const { id, userId, expires, ...user } = row;
  return { id, userId, expires, user: { id: userId, ...user } };
}

/** Moves a session's expiry (when given); null when there is no such session. */
export async function extendSession(db: DbOrTx, tokenDigest: string, expires: Date | undefined) {
  const { count } = await db.session.updateMany({ where: { sessionToken: tokenDigest }, data: expires ? { expires } : {} });
  if (count === 0) return null;
  return db.session.findUnique({ where: { sessionToken: tokenDigest }, select: { userId: true, expires: true } });
}

export async function deleteSession(db: DbOrTx, tokenDigest: string): Promise<void> {
  await db.session.deleteMany({ where: { sessionToken: tokenDigest } });
}

// ---------------------------------------------------------------------------------------------
// Memberships, as authorization reads them

const WORKSPACE_MEMBERSHIP = new Statement<{ member: { workspaceId: string; userId: string } }>(
  (sql) => `SELECT status::text AS status, permissions FROM workspace_members
    WHERE workspace_id = ${sql.param('member', 'workspaceId', 'uuid')} AND user_id = ${sql.param('member', 'userId', 'uuid')}`,
);

/** A person's membership of a workspace, active or not, or null (a prepared statement: most session routes read it). */
export async function findWorkspaceMembership(db: DbOrTx, workspaceId: string, userId: string): Promise<{ status: MembershipStatus; permissions: string[] } | null> {
  const [row] = await sqlRows<{ status: MembershipStatus; permissions: string[] }>(db, WORKSPACE_MEMBERSHIP.text, WORKSPACE_MEMBERSHIP.values({ member: { workspaceId, userId } }));
  return row ?? null;
}

/**
 * `SELECT workspace_id …`: the workspaces the person `userId` (SQL) is an active member of, holding
 * `permission` (SQL text, NULL for any membership). A statement of its own reads it; others embed it.
 */
export function activeWorkspaceIdsSql(userId: string, permission: string): string {
  return `SELECT workspace_id FROM workspace_members WHERE user_id = ${userId} AND status = 'active' AND (${permission} IS NULL OR ${permission} = ANY(permissions))`;
}

const ACTIVE_WORKSPACE_IDS = new Statement<{ member: { userId: string; permission: string | null } }>(
  (sql) => `SELECT workspace_id::text AS id FROM (${activeWorkspaceIdsSql(sql.param('member', 'userId', 'uuid'), sql.param('member', 'permission', 'text'))}) m`,
);

/** The workspaces a person is an active member of (holding `permission`, when named): a prepared statement, as every cross-workspace list reads it. */
export async function findActiveWorkspaceIds(db: DbOrTx, userId: string, permission?: WorkspacePermission): Promise<string[]> {
  const rows = await sqlRows<{ id: string }>(db, ACTIVE_WORKSPACE_IDS.text, ACTIVE_WORKSPACE_IDS.values({ member: { userId, permission: permission ?? null } }));
  return rows.map((row) => row.id);
}

/** A business, the person's standing in it and in its workspace, and its active connection. */
export type BusinessAccessRow = {
  id: string;
  workspaceId: string;
  membership: { id: string; role: 'owner' | 'editor' | 'viewer' } | null;
  workspacePermissions: string[] | null;
  connection: { kind: 'direct' | 'managed'; projectId: string; liveEnvironmentId: string } | null;
};

/** A business's access row for a person, as [field, expression] over `businesses b`: a statement of its own reads it, the trace embeds it. */
function businessAccessColumns(userId: string): [field: keyof BusinessAccessRow, expression: string][] {
  return [
    ['id', 'b.id::text'],
    ['workspaceId', 'b.workspace_id::text'],
    ['membership', `(SELECT json_build_object('id', m.id, 'role', m.role) FROM business_members m
      WHERE m.business_id = b.id AND m.user_id = ${userId} AND m.status = 'active')`],
    ['workspacePermissions', `(SELECT w.permissions FROM workspace_members w
      WHERE w.workspace_id = b.workspace_id AND w.user_id = ${userId} AND w.status = 'active')`],
    ['connection', `(SELECT json_build_object('kind', c.kind, 'projectId', c.project_id, 'liveEnvironmentId', e.id)
      FROM connections c JOIN environments e ON e.project_id = c.project_id AND e.kind = 'live'
      WHERE c.business_id = b.id AND c.status = 'active' LIMIT 1)`],
  ];
}

/** A business's access row for the person `userId` (SQL) as one JSON value, or null when there is no business `businessId` (SQL). */
export function businessAccessJson(businessId: string, userId: string): string {
  const fields = businessAccessColumns(userId).map(([field, expression]) => `'${field}', ${expression}`);
  return `(SELECT json_build_object(${fields.join(', ')}) FROM businesses b WHERE b.id = ${businessId})`;
}

// One statement, not a Prisma query with three relations: Prisma reads those concurrently, and
// inside a transaction (the member and branding changes check access in theirs) that means
// several queries at once on the transaction's one connection, which pg deprecates.
const BUSINESS_ACCESS = new Statement<{ access: { businessId: string; userId: string } }>((sql) => {
  const columns = businessAccessColumns(sql.param('access', 'userId', 'uuid')).map(([field, expression]) => `${expression} AS "${field}"`);
  return `SELECT ${columns.join(', ')} FROM businesses b WHERE b.id = ${sql.param('access', 'businessId', 'uuid')}`;
});

/** What a person may do with a business, in one query; null when there is no such business. */
export async function readBusinessAccess(db: DbOrTx, businessId: string, userId: string): Promise<BusinessAccessRow | null> {
  const [row] = await sqlRows<BusinessAccessRow>(db, BUSINESS_ACCESS.text, BUSINESS_ACCESS.values({ access: { businessId, userId } }));
  return row ?? null;
}
