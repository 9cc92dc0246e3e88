import type { BusinessAccess } from '../auth/permissions';
import type { DbOrTx } from '../db/client';
import type { PublishGuard } from '../books/impact-schemas';
import { businessSelect, toBusinessView } from './business-view';

/**
 * Sets the business's publishing safeguard (the route has checked requireBusinessSettingsEditor):
 * the next publication to Live of a book the business quotes from is measured against it.
 */
export async function setPublishGuard(db: DbOrTx, access: BusinessAccess, guard: PublishGuard, now: Date) {
  const row = await db.business.update({
    where: { id: access.business.id },
    data: { publishGuardChangePercent: guard.changePercent, publishGuardSharePercent: guard.sharePercent, updatedAt: now },
    select: businessSelect,
  });
  return toBusinessView(row);
}
