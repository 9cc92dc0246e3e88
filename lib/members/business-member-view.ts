import type { BusinessMemberView } from './schemas';
import type { BusinessMemberRow } from './store';

export function toBusinessMemberView(row: BusinessMemberRow): BusinessMemberView {
  return {
    id: row.id,
    businessId: row.businessId,
    userId: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: row.role,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
