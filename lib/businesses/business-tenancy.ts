import type { DbOrTx } from '../db/client';
import { findBusinessTenancy } from './store';

export type BusinessTenancy = { workspaceId: string; businessId: string; projectId?: string; environmentId?: string };

/**
 * Where a business's anonymous requests belong in the request log: its workspace, and the Live
 * environment of its active connection (public quotes are Live). Null for an id that names none.
 */
export async function tenancyOfBusiness(db: DbOrTx, businessId: string): Promise<BusinessTenancy | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(businessId)) return null;
  const row = await findBusinessTenancy(db, businessId);
  if (!row) return null;
  return { workspaceId: row.workspaceId, businessId, projectId: row.projectId ?? undefined, environmentId: row.environmentId ?? undefined };
}
