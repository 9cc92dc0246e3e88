import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';

export type BusinessTenancy = { workspaceId: string; businessId: string; projectId?: string; environmentId?: string };

/**
 * Where a business's anonymous requests belong in the request log: its workspace, and the Live
 * environment of its active connection (public quotes are Live). Null for an id that names none.
 */
export async function tenancyOfBusiness(db: DbOrTx, businessId: string): Promise<BusinessTenancy | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(businessId)) return null;
  const [row] = await sqlRows<{ workspaceId: string; projectId: string | null; environmentId: string | null }>(
    db,
    `SELECT b.workspace_id::text AS "workspaceId", c.project_id::text AS "projectId", e.id::text AS "environmentId"
       FROM businesses b
       LEFT JOIN connections c ON c.business_id = b.id AND c.status = 'active'
       LEFT JOIN environments e ON e.project_id = c.project_id AND e.kind = 'live'
      WHERE b.id = $1::uuid`,
    [businessId],
  );
  if (!row) return null;
  return { workspaceId: row.workspaceId, businessId, projectId: row.projectId ?? undefined, environmentId: row.environmentId ?? undefined };
}
