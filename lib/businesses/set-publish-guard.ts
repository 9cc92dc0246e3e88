import type { BusinessAccess } from '../auth/permissions';
import type { VerbContext } from '../context/verb-context';
import type { PublishGuard } from '../books/impact-schemas';
import { businessSelect, toBusinessView } from './business-view';

/**
 * Sets the business's publishing safeguard (the route has checked requireBusinessSettingsEditor):
 * the next publication to Live of a book the business quotes from is measured against it.
 */
export async function setPublishGuard({ db, now }: VerbContext, { access, guard }: { access: BusinessAccess; guard: PublishGuard }) {
  const row = await db.business.update({
    where: { id: access.business.id },
    data: { publishGuardChangePercent: guard.changePercent, publishGuardSharePercent: guard.sharePercent, updatedAt: now },
    select: businessSelect,
  });
  return toBusinessView(row);
}
