import type { BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { connectedEnvironmentId, getBusinessAccountQuote, type QuotesEnvironment } from './business-account-quotes';
import { isExpired } from './account-quote-views';
import type { AccountQuoteView, ReviewDecision } from './account-schemas';
import { lockAccountQuote, recordAccountQuoteReview } from './store';

/**
 * POST /v1/businesses/{id}/account-quotes/{quoteId}/review (Live quotes: the business's owner, or
 * a workspace member with `businesses:manage`) and POST /v1/account-quotes/{quoteId}/review (Test
 * or Live: `businesses:manage`); the route has checked who. The reviewer approves a held quote, which becomes
 * `quoted` and committable, or declines it with a reason. The quote's row lock makes concurrent
 * decisions take turns: the first is recorded with its event, every later one answers 409
 * `already_reviewed`. An expired price cannot be approved (409 `quote_expired`).
 */
export async function reviewAccountQuote(
  ctx: VerbContext<SessionPrincipal>,
  input: { access: BusinessAccess; environment: QuotesEnvironment | 'either'; quoteId: string; decision: ReviewDecision; reason: string | null },
): Promise<AccountQuoteView> {
  const { access, environment, quoteId, decision, reason } = input;
  const projectId = access.connection?.projectId;
  // `either` (the workspace route): the quote's own environment, whichever it is.
  const environmentId = environment === 'either' ? undefined : await connectedEnvironmentId(ctx, access, environment);
  await withTransaction(ctx, async ({ db: tx, now, principal }) => {
    const quote = projectId && environmentId !== null ? await lockAccountQuote(tx, { id: quoteId, projectId, environmentId }) : null;
    if (!quote) throw new ServiceError('not_found', `No quote ${quoteId} for this business.`);
    if (quote.reviewDecision) {
      throw new ServiceError('already_reviewed', `This quote was already ${quote.reviewDecision}.`, { details: { decision: quote.reviewDecision } });
    }
    if (quote.state !== 'awaiting_approval') {
      throw new ServiceError('conflict', `Only a quote awaiting approval can be reviewed; this one is ${quote.state}.`);
    }
    if (decision === 'approved' && isExpired(quote, now)) {
      throw new ServiceError('quote_expired', `This price expired at ${quote.expiresAt!.toISOString()}; it can no longer be approved.`);
    }
    const state = decision === 'approved' ? 'quoted' : quote.state;
    await recordAccountQuoteReview(tx, { id: quote.id, state, decision, reason, reviewedBy: principal.userId, reviewedAt: now });
    await recordEvent(
      { db: tx, now },
      {
        type: decision === 'approved' ? 'account_quote.approved' : 'account_quote.declined',
        workspaceId: access.business.workspaceId,
        projectId: quote.projectId,
        environmentId: quote.environmentId,
        businessId: access.business.id,
        subjectId: quote.id,
        data: {
          quote: quote.response as Record<string, unknown>,
          state,
          review: { decision, reason, reviewed_at: now.toISOString(), reviewed_by: principal.userId },
          expires_at: quote.expiresAt?.toISOString() ?? null,
        },
      },
    );
  });
  return getBusinessAccountQuote(ctx, { access, environment, quoteId });
}
