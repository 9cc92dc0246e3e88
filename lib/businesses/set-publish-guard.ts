import type { BusinessAccess } from '../auth/permissions';
import type { VerbContext } from '../context/verb-context';
import type { PublishGuard } from '../books/impact-schemas';
import { toBusinessView } from './business-view';
import { updatePublishGuard } from './store';

/**
 * Sets the business's publishing safeguard (the route has checked requireBusinessDuty):
 * the next publication to Live of a book the business quotes from is measured against it.
 */
export async function setPublishGuard({ db, now }: VerbContext, { access, guard }: { access: BusinessAccess; guard: PublishGuard }) {
  return toBusinessView(await updatePublishGuard(db, access.business.id, guard, now));
}
