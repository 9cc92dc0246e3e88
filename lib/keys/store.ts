import { LRUCache } from 'lru-cache';
import type { ApiKeyPrincipal, EnvironmentName } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import { Statement, Table } from '../db/statement';

/**
 * The API keys' store: the only place with SQL for keys, and the per-process memory of keys
 * found valid recently. That memory is safe only where a write re-checks the key: the quote's
 * insert does (`key_holds` in lib/quotes/store.ts), so only the quote route answers from it.
 * Verbs (create, rotate, revoke, sweep, list) and authenticate-api-key.ts read as flow.
 */

// ---------------------------------------------------------------------------------------------
// Rows

/** The relation a key's view reads: its environment's kind. */
const withEnvironmentKind = { environment: { select: { kind: true } } } satisfies Prisma.ApiKeyInclude;

/** A stored key with its environment's kind: what toApiKeyView shows and the verbs read. */
export type ApiKeyRow = Prisma.ApiKeyGetPayload<{ include: typeof withEnvironmentKind }>;

/** A key as minted: the secret itself is never stored, only its digest and what may be shown. */
export type NewApiKeyRow = {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  name: string;
  digest: string;
  displayPrefix: string;
  last4: string;
  scopes: string[];
  createdBy?: string;
  predecessorId?: string;
  createdAt: Date;
};

/** What authentication reads of a key, and the kind of its environment (the secret's prefix must name it). */
export type KeyCredentialRow = {
  id: string;
  digest: string;
  workspaceId: string;
  projectId: string;
  environmentId: string;
  status: ApiKeyRow['status'];
  scopes: string[];
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  kind: EnvironmentName;
};

const keyCredentials = new Table<Omit<KeyCredentialRow, 'kind'>>('api_keys', {
  id: ['id', 'uuid'],
  digest: ['digest', 'text'],
  workspaceId: ['workspace_id', 'uuid'],
  projectId: ['project_id', 'uuid'],
  environmentId: ['environment_id', 'uuid'],
  status: ['status', '"ApiKeyStatus"'],
  scopes: ['scopes', 'text[]'],
  revokedAt: ['revoked_at', 'timestamptz'],
  lastUsedAt: ['last_used_at', 'timestamptz'],
});

// ---------------------------------------------------------------------------------------------
// Authentication: read afresh, or remembered

// Every authenticated request starts here: one indexed lookup, by digest, with its environment.
const FIND_BY_DIGEST = new Statement<{ key: { digest: string } }>(
  (sql) => `SELECT ${keyCredentials.selectList('k')}, e.kind::text AS kind
     FROM api_keys k JOIN environments e ON e.id = k.environment_id
     WHERE k.digest = ${sql.param('key', 'digest', 'text')}`,
);

const NOTE_USE = new Statement<{ use: { keyId: string; at: Date } }>(
  (sql) => `UPDATE api_keys SET last_used_at = ${sql.param('use', 'at', 'timestamptz')} WHERE id = ${sql.param('use', 'keyId', 'uuid')}`,
);

/** A key seen valid recently, by digest, and the last use written for it. */
type RememberedKey = { principal: ApiKeyPrincipal; lastUsedAt: Date | null };
const rememberedKeys = new LRUCache<string, RememberedKey>({ max: 10_000 });

/**
 * The key a digest names, read from the database. Its memory is forgotten first: a key found
 * invalid now must not be answered from memory later.
 */
export async function readKeyAfresh(db: DbOrTx, digest: string): Promise<KeyCredentialRow | null> {
  rememberedKeys.delete(digest);
  const [key] = await sqlRows<KeyCredentialRow>(db, FIND_BY_DIGEST.text, FIND_BY_DIGEST.values({ key: { digest } }));
  return key ?? null;
}

/**
 * A key this process found valid recently, without a query, or null (unknown, of another
 * environment, or its last use is due to be written: then it is read afresh, since nothing is
 * written for a key before it has been found valid). Each call returns a new principal object,
 * so that callers can tell requests apart.
 */
export function rememberedKey(digest: string, environment: EnvironmentName, now: Date): ApiKeyPrincipal | null {
  const known = rememberedKeys.get(digest);
  return known && known.principal.environment === environment && !useIsDue(known, now) ? { ...known.principal } : null;
}

/** Remembers a key just found valid, and writes its last use when due (not awaited). */
export function rememberKey(db: DbOrTx, digest: string, principal: ApiKeyPrincipal, lastUsedAt: Date | null, now: Date): void {
  const remembered = { principal, lastUsedAt };
  if (useIsDue(remembered, now)) {
    remembered.lastUsedAt = now;
    void sqlRows(db, NOTE_USE.text, NOTE_USE.values({ use: { keyId: principal.keyId, at: now } })).catch(() => undefined);
  }
  rememberedKeys.set(digest, remembered);
}

/** Last use is kept to the minute so that authentication is not a write on every request. */
function useIsDue(key: RememberedKey, now: Date): boolean {
  return !key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > 60_000;
}

// ---------------------------------------------------------------------------------------------
// Minting

/** What minting a key for a project needs to know of it. */
export async function findProjectForKeys(db: DbOrTx, projectId: string) {
  return db.project.findUnique({ where: { id: projectId }, select: { workspaceId: true, entitlements: true } });
}

export async function insertApiKey(db: DbOrTx, key: NewApiKeyRow): Promise<ApiKeyRow> {
  return db.apiKey.create({ data: key, include: withEnvironmentKind });
}

// ---------------------------------------------------------------------------------------------
// Reading and changing keys

/** Where a key belongs, for the check that a person may manage it. */
export async function findKeyOwner(db: DbOrTx, keyId: string) {
  return db.apiKey.findUnique({ where: { id: keyId }, select: { id: true, workspaceId: true, projectId: true } });
}

/** Keys of these workspaces, newest first, at most 500. */
export async function listKeys(
  db: DbOrTx,
  filter: { workspaceIds: string[]; projectId?: string; environment?: EnvironmentName },
): Promise<ApiKeyRow[]> {
  return db.apiKey.findMany({
    where: {
      projectId: filter.projectId,
      environment: filter.environment ? { kind: filter.environment } : undefined,
      workspaceId: { in: filter.workspaceIds },
    },
    orderBy: { createdAt: 'desc' },
    take: 500,
    include: withEnvironmentKind,
  });
}

/**
 * Locks a key's row until the transaction ends (FOR UPDATE), then reads it; null when there is
 * no such key. Two rotations or revocations of one key run one after the other.
 */
export async function lockApiKey(tx: DbOrTx, keyId: string): Promise<ApiKeyRow | null> {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM api_keys WHERE id = ${keyId}::uuid FOR UPDATE`;
  return locked ? tx.apiKey.findUniqueOrThrow({ where: { id: locked.id }, include: withEnvironmentKind }) : null;
}

/** Sets a key's status (and `revokedAt`, when given). */
export async function setKeyStatus(
  db: DbOrTx,
  keyId: string,
  change: { status: ApiKeyRow['status']; revokedAt?: Date },
): Promise<ApiKeyRow> {
  return db.apiKey.update({ where: { id: keyId }, data: change, include: withEnvironmentKind });
}

/**
 * Locks up to 500 rotating keys whose grace window has ended, oldest first; keys another
 * transaction holds are skipped (SKIP LOCKED), so that sweeps can run in several instances.
 */
export async function lockEndedGraces(tx: DbOrTx, now: Date): Promise<string[]> {
  const due = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM api_keys WHERE status = 'rotating' AND revoked_at <= ${now}::timestamptz
    ORDER BY revoked_at LIMIT 500 FOR UPDATE SKIP LOCKED`;
  return due.map((key) => key.id);
}
