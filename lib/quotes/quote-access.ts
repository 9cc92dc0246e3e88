import { businessAccess, requireWorkspaceMember } from '../auth/permissions';
import type { ApiKeyPrincipal, SessionPrincipal } from '../auth/principal';
import { readFresh, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { asOf } from './expire-quote-intents';
import { findQuote, type StoredQuote } from './store';

/**
 * A stored quote the caller may inspect (verify, compare), or 404 whether it does not exist or
 * is not theirs. A member: of the quote's business, or of its workspace with `logs:read`. An API
 * key: any quote of its own environment (Test and Live never see each other's quotes). The
 * quote is read from the read replica when there is one and has it; the right to it, on the primary.
 */
export async function findInspectableQuote(
  ctx: Pick<VerbContext<SessionPrincipal | ApiKeyPrincipal>, 'db' | 'readDb' | 'principal' | 'now'>,
  id: string,
): Promise<StoredQuote> {
  const { db, principal, now } = ctx;
  const notFound = new ServiceError('not_found', `No quote ${id}.`);
  const { value: found } = await readFresh(ctx, (db) => findQuote(db, id));
  if (!found) throw notFound;
  const intent = asOf(found.intent, now);
  if (principal.kind === 'api_key') {
    if (intent.environmentId !== principal.environmentId) throw notFound;
  } else {
    const ofTheirBusiness = intent.businessId !== null && (await businessAccess(db, principal, intent.businessId))?.membership;
    if (!ofTheirBusiness) await requireWorkspaceMember(db, principal, intent.workspaceId, 'logs:read', notFound.message);
  }
  return { ...found, intent };
}
