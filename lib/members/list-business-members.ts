import type { VerbContext } from '../context/verb-context';
import { businessMemberSelect, toBusinessMemberView } from './business-member-view';

/** The roster: active and invited members, owners first (the route has checked requireBusinessReader). */
export async function listBusinessMembers({ db }: VerbContext, { businessId }: { businessId: string }) {
  const rows = await db.businessMember.findMany({
    where: { businessId, status: { in: ['active', 'invited'] } },
    orderBy: [{ role: 'asc' }, { createdAt: 'asc' }],
    select: businessMemberSelect,
  });
  return rows.map(toBusinessMemberView);
}
