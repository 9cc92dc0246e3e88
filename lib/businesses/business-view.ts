import type { Prisma } from '../db/generated/client';
import type { BusinessView } from './schemas';

export const businessSelect = {
  id: true,
  workspaceId: true,
  name: true,
  displayName: true,
  logoUrl: true,
  primaryColor: true,
  accentColor: true,
  nextStepLabel: true,
  nextStepUrl: true,
  publishGuardChangePercent: true,
  publishGuardSharePercent: true,
  createdAt: true,
  connections: {
    orderBy: [{ status: 'asc' }, { createdAt: 'asc' }],
    take: 1,
    select: { projectId: true, kind: true, status: true },
  },
} satisfies Prisma.BusinessSelect;

type Row = {
  id: string;
  workspaceId: string;
  name: string;
  displayName: string | null;
  logoUrl: string | null;
  primaryColor: string | null;
  accentColor: string | null;
  nextStepLabel: string | null;
  nextStepUrl: string | null;
  publishGuardChangePercent: number;
  publishGuardSharePercent: number;
  createdAt: Date;
  connections: { projectId: string; kind: 'direct' | 'managed'; status: 'active' | 'inactive' }[];
};

export function toBusinessView(row: Row): BusinessView {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    branding: {
      displayName: row.displayName ?? row.name,
      logoUrl: row.logoUrl,
      primaryColor: row.primaryColor,
      accentColor: row.accentColor,
      nextStep: row.nextStepLabel && row.nextStepUrl ? { label: row.nextStepLabel, url: row.nextStepUrl } : null,
    },
    publishGuard: { changePercent: row.publishGuardChangePercent, sharePercent: row.publishGuardSharePercent },
    connection: row.connections[0] ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
