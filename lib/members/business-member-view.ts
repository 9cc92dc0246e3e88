import type { Prisma } from '../db/generated/client';
import type { BusinessMemberView } from './schemas';

export const businessMemberSelect = {
  id: true,
  businessId: true,
  userId: true,
  role: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  user: { select: { email: true, name: true } },
} satisfies Prisma.BusinessMemberSelect;

type Row = {
  id: string;
  businessId: string;
  userId: string;
  role: BusinessMemberView['role'];
  status: BusinessMemberView['status'];
  createdAt: Date;
  updatedAt: Date;
  user: { email: string; name: string | null };
};

export function toBusinessMemberView(row: Row): BusinessMemberView {
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
