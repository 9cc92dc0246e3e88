import type { VerbContext } from '../context/verb-context';
import { toBusinessMemberView } from './business-member-view';
import { listRoster } from './store';

/** The roster: active and invited members, owners first (the route has checked requireBusinessReader). */
export async function listBusinessMembers({ db }: VerbContext, { businessId }: { businessId: string }) {
  return (await listRoster(db, businessId)).map(toBusinessMemberView);
}
