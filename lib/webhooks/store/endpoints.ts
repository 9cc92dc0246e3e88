import type { TestFailureColumns } from '../test-failures';
import type { EnvironmentName } from '../../auth/principal';
import type { DbOrTx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';

/**
 * Webhook endpoints as the store reads and writes them, the locks the endpoint verbs take on
 * them, and the check value of the key their signing secrets are sealed with.
 */

/** What an endpoint's view (endpoint-view.ts) and the verbs that found it read of it. */
export const endpointSelect = {
  id: true,
  workspaceId: true,
  projectId: true,
  environmentId: true,
  url: true,
  description: true,
  eventTypes: true,
  status: true,
  secretPrefix: true,
  secretLast4: true,
  previousSecretExpiresAt: true,
  testFailureMode: true,
  testFailureStatus: true,
  testFailureRemaining: true,
  compressedRetries: true,
  createdAt: true,
  updatedAt: true,
  environment: { select: { kind: true } },
} satisfies Prisma.WebhookEndpointSelect;

export type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof endpointSelect }>;

/** A signing secret as stored: sealed, with the ends shown to identify it (endpoint-secret-columns.ts). */
export type SecretColumns = { secretCiphertext: string; secretPrefix: string; secretLast4: string };

export type NewEndpoint = SecretColumns & {
  workspaceId: string;
  projectId: string;
  environmentId: string;
  url: string;
  eventTypes: string[];
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** What PATCH may change. */
export type EndpointChanges = { url?: string; eventTypes?: string[]; description?: string | null; status?: 'enabled' | 'disabled'; compressedRetries?: boolean } & Partial<TestFailureColumns>;

export async function insertEndpoint(db: DbOrTx, endpoint: NewEndpoint): Promise<EndpointRow> {
  return db.webhookEndpoint.create({ data: endpoint, select: endpointSelect });
}

/** The endpoint unless it is deleted. */
export async function findEndpoint(db: DbOrTx, endpointId: string): Promise<EndpointRow | null> {
  return db.webhookEndpoint.findFirst({ where: { id: endpointId, deletedAt: null }, select: endpointSelect });
}

/** The endpoints (not deleted) of these workspaces, oldest first. */
export async function listEndpointsOfWorkspaces(
  db: DbOrTx,
  { workspaceIds, projectId, environment }: { workspaceIds: string[]; projectId?: string; environment?: EnvironmentName },
): Promise<EndpointRow[]> {
  return db.webhookEndpoint.findMany({
    where: {
      deletedAt: null,
      projectId,
      environment: environment ? { kind: environment } : undefined,
      workspaceId: { in: workspaceIds },
    },
    orderBy: { createdAt: 'asc' },
    select: endpointSelect,
  });
}

export async function saveEndpointChanges(db: DbOrTx, endpointId: string, changes: EndpointChanges, now: Date): Promise<EndpointRow> {
  return db.webhookEndpoint.update({ where: { id: endpointId }, data: { ...changes, updatedAt: now }, select: endpointSelect });
}

/** Deleting keeps the row (its deliveries' history stays whole) and disables it. */
export async function markEndpointDeleted(db: DbOrTx, endpointId: string, now: Date): Promise<EndpointRow> {
  return db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { deletedAt: now, status: 'disabled', updatedAt: now },
    select: endpointSelect,
  });
}

export async function readEndpointSecret(db: DbOrTx, endpointId: string): Promise<string> {
  const { secretCiphertext } = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: { secretCiphertext: true } });
  return secretCiphertext;
}

/** A new secret; the previous one (null: none) keeps signing until `previousSecretExpiresAt`. */
export async function replaceEndpointSecret(
  db: DbOrTx,
  endpointId: string,
  secret: SecretColumns & { previousSecretCiphertext: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): Promise<EndpointRow> {
  return db.webhookEndpoint.update({ where: { id: endpointId }, data: { ...secret, updatedAt: now }, select: endpointSelect });
}

/**
 * Locks the endpoint's row until the transaction ends. FOR UPDATE waits for transactions that
 * have just written a delivery to it (their foreign-key check holds KEY SHARE on the row); FOR
 * NO KEY UPDATE serialises writers of the endpoint without waiting for them.
 */
export async function lockEndpoint(db: DbOrTx, endpointId: string, strength: 'update' | 'no key update'): Promise<void> {
  if (strength === 'update') await db.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR UPDATE`;
  else await db.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR NO KEY UPDATE`;
}

/**
 * Whether the endpoint is deleted or enabled, read under KEY SHARE: that waits for a deletion or
 * disabling in progress (it holds the row FOR UPDATE) and then reads its outcome. Endpoints are
 * never removed (deleting marks them), so the row of an endpoint found before is there.
 */
export async function readEndpointReceiving(db: DbOrTx, endpointId: string): Promise<{ deleted: boolean; enabled: boolean }> {
  const [row] = await db.$queryRaw<{ deleted: boolean; enabled: boolean }[]>`
    SELECT deleted_at IS NOT NULL AS deleted, status = 'enabled' AS enabled FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR KEY SHARE`;
  return row;
}

const TAKE_FAILURE_SQL = `WITH current AS (
    SELECT e.id, e.test_failure_mode, e.test_failure_status, e.test_failure_remaining
    FROM webhook_endpoints e JOIN environments env ON env.id = e.environment_id
    WHERE e.id = $1::uuid AND e.test_failure_mode IS NOT NULL AND env.kind = 'test'
    FOR NO KEY UPDATE OF e
  )
  UPDATE webhook_endpoints e SET
    test_failure_remaining = CASE WHEN c.test_failure_remaining IS NULL THEN NULL ELSE c.test_failure_remaining - 1 END,
    test_failure_mode = CASE WHEN c.test_failure_remaining = 1 THEN NULL ELSE c.test_failure_mode END,
    test_failure_status = CASE WHEN c.test_failure_remaining = 1 THEN NULL ELSE c.test_failure_status END
  FROM current c WHERE e.id = c.id
  RETURNING c.test_failure_mode::text AS mode, c.test_failure_status AS status, c.test_failure_remaining AS remaining`;

/** A failure taken from a Test endpoint set to fail (test-failures.ts): as it was set before this one was taken. */
export type TakenTestFailure = { mode: 'status' | 'timeout'; status: number | null; remaining: number | null };

/**
 * Takes one failure from a Test endpoint set to fail: counts it down (clearing the setting with
 * its last one) under the row's lock, so that two sends at once never take the same last
 * failure. Null when the endpoint is not set to fail (or is not a Test endpoint).
 */
export async function takeEndpointTestFailure(db: DbOrTx, endpointId: string): Promise<TakenTestFailure | null> {
  const [taken] = await sqlRows<TakenTestFailure>(db, TAKE_FAILURE_SQL, [endpointId]);
  return taken ?? null;
}
