import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { PIPELINE_COUNT_CAP } from './pipeline-count';
import { countInboxOf } from './store';

/** GET /v1/me/inbox: the held Live quotes the person may review and the new leads they can read, per business. */
export async function personInbox({ db, principal }: VerbContext<SessionPrincipal>) {
  const businesses = await countInboxOf(db, principal.userId, PIPELINE_COUNT_CAP);
  return {
    heldQuotes: businesses.reduce((sum, b) => sum + b.heldQuotes, 0),
    newLeads: Math.min(businesses.reduce((sum, b) => sum + b.newLeads, 0), PIPELINE_COUNT_CAP),
    businesses: businesses.filter((b) => b.heldQuotes > 0 || b.newLeads > 0),
  };
}
