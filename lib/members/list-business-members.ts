import type { SessionPrincipal } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { requireBusinessReader } from './business-authorization';
import { businessMemberSelect, toBusinessMemberView } from './business-member-view';

/** The roster: active and invited members, owners first. */
export async function listBusinessMembers(db: DbOrTx, principal: SessionPrincipal, businessId: string) {
  await requireBusinessReader(db, principal, businessId);
  const rows = await db.businessMember.findMany({
    where: { businessId, status: { in: ['active', 'invited'] } },
    orderBy: [{ role: 'asc' }, { createdAt: 'asc' }],
    select: businessMemberSelect,
  });
  return rows.map(toBusinessMemberView);
}
