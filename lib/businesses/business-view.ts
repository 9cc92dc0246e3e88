import { consentSentence } from './acceptance-consent';
import type { BusinessView } from './schemas';
import type { BusinessRow } from './store';

export function toBusinessView(row: BusinessRow): BusinessView {
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
      acceptanceConsent: consentSentence(row),
      acceptanceConsentIsDefault: row.acceptanceConsent === null,
    },
    publishGuard: { changePercent: row.publishGuardChangePercent, sharePercent: row.publishGuardSharePercent },
    connection: row.connections[0] ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
