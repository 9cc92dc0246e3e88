import { createHmac, randomUUID } from 'node:crypto';
import { findBranding } from '../businesses/store';
import { consentSentence } from '../businesses/acceptance-consent';
import { tenancyOfBusiness, type BusinessTenancy } from '../businesses/business-tenancy';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { queueOwnerNotification } from '../notifications/queue-owner-notification';
import { spendAllowance } from '../ratelimit/registry';
import { requireSealingKey } from '../sealing/check-sealing-key';
import { derivedKey } from '../sealing/sealing-key';
import type { QuoteComputation } from '../pricing';
import { asOf } from '../quotes/expire-quote-intents';
import { surfaceUnavailable } from '../quotes/resolve-quote-scope';
import { findQuote, type StoredQuote } from '../quotes/store';
import { acceptanceFormRefusal } from './form-token';
import { toAcceptanceEventData, toPublicAcceptance } from './lead-view';
import type { AcceptQuoteRequest, PublicAcceptance } from './schemas';
import { findAcceptanceOfQuote, insertAcceptance, type LeadRow } from './store';

const FORM_REFUSALS = {
  invalid: 'This form could not be checked. Reload the page and try again.',
  too_fast: 'That was quicker than we expected. Please check your details and send them again.',
  stale: 'This form was open for a long time. Reload the page and try again.',
} as const;

/**
 * POST /v1/public_quotes/{id}/acceptance: an anonymous customer accepts a priced quote of the
 * business whose page they are on, leaving how to reach them. The acceptance is bound to the
 * receipt they saw (its id and signature), written with its `quote_intent.accepted` event (Live)
 * in one transaction; accepting again with the same details answers the first acceptance.
 * Refused: a form that was not shown or was sent by a robot (400), a quote of another business
 * or not from the hosted page (404), not priced (409 `quote_not_priced`), past its validity (409
 * `quote_expired`), accepted before with other details (409 `quote_already_accepted`), or past
 * the business's allowance of new acceptances (429), which only a new acceptance spends.
 */
export async function acceptQuote(
  ctx: VerbContext,
  { quoteIntentId, request, client = null }: { quoteIntentId: string; request: AcceptQuoteRequest; /** The caller's address, for its share of the allowance. */ client?: string | null },
): Promise<{ acceptance: PublicAcceptance; replayed: boolean; tenancy: BusinessTenancy }> {
  const { db, now } = ctx;
  await requireSealingKey(ctx, 'Quote acceptances');
  const problem = acceptanceFormRefusal(request, quoteIntentId, now);
  if (problem) {
    throw new ServiceError('invalid_request', FORM_REFUSALS[problem], { details: { fields: { formToken: [FORM_REFUSALS[problem]] }, formToken: problem } });
  }

  if (request.preferredDate && !dayCanBeAskedFor(request.preferredDate, now)) {
    const message = 'pick a day from today on, within two years';
    throw new ServiceError('invalid_request', `preferredDate: ${message}.`, { details: { fields: { preferredDate: [message] } } });
  }
  const stored = await findPublicQuoteOf(ctx, quoteIntentId, request.businessId);
  const tenancy = await tenancyOfBusiness(db, request.businessId);
  if (!tenancy || tenancy.environmentId !== stored.intent.environmentId) throw surfaceUnavailable();
  const existing = await findAcceptanceOfQuote(db, quoteIntentId);
  if (existing) return { acceptance: replayOrRefuse(existing, request), replayed: true, tenancy };
  if (stored.receipt.outcome !== 'succeeded') throw new ServiceError('quote_not_priced', 'Only a priced quote can be accepted.');
  const intent = asOf(stored.intent, now);
  if (intent.status === 'expired') {
    throw new ServiceError('quote_expired', `This price was valid until ${intent.expiresAt!.toISOString()}. Ask for a new price.`);
  }
  // Counted by the quote's business (findPublicQuoteOf checked the body names it), only now that
  // this would be a new acceptance: the client's share first, so a spent share costs the business nothing.
  await spendAllowance(db, 'publicAcceptancePerClient', `${request.businessId}:${clientMark(client)}`);
  await spendAllowance(db, 'publicAcceptanceCreate', request.businessId);
  const computation = stored.receipt.computation as QuoteComputation;
  const id = randomUUID();

  const written = await withTransaction(ctx, async ({ db: tx }) => {
    const inserted = await insertAcceptance(tx, {
      id,
      quoteIntentId,
      receiptId: stored.receipt.id,
      receiptSignature: stored.receipt.signature,
      workspaceId: intent.workspaceId,
      projectId: intent.projectId,
      environmentId: intent.environmentId,
      businessId: request.businessId,
      totalMinor: computation.totalMinor,
      currency: computation.currency,
      contactName: request.contact.name,
      contactEmail: request.contact.email ?? null,
      contactPhone: request.contact.phone ?? null,
      note: request.note || null,
      preferredDate: request.preferredDate ?? null,
      consentText: consentSentence(await findBranding(tx, request.businessId)),
      requestCorrelationId: ctx.requestId,
      experimentId: stored.receipt.experiment?.experimentId ?? null,
      experimentArm: stored.receipt.experiment?.arm ?? null,
      createdAt: now,
    });
    if (!inserted) return null;
    const row = (await findAcceptanceOfQuote(tx, quoteIntentId))!;
    await recordEvent(
      { db: tx, now },
      {
        type: 'quote_intent.accepted',
        workspaceId: intent.workspaceId,
        projectId: intent.projectId,
        environmentId: intent.environmentId,
        businessId: request.businessId,
        subjectId: quoteIntentId,
        data: toAcceptanceEventData(row),
      },
    );
    await queueOwnerNotification(tx, { kind: 'lead', businessId: request.businessId, subjectId: id, now });
    return row;
  });
  if (written) return { acceptance: toPublicAcceptance(written), replayed: false, tenancy };
  // A concurrent acceptance of the same quote won: answer it, or refuse other details.
  return { acceptance: replayOrRefuse((await findAcceptanceOfQuote(db, quoteIntentId))!, request), replayed: true, tenancy };
}

/**
 * The first acceptance again when the details are the same (a retry, a second tab), else 409:
 * the quote was accepted, by someone whose details this customer must not see.
 */
function replayOrRefuse(existing: LeadRow, request: AcceptQuoteRequest): PublicAcceptance {
  const same =
    existing.erasedAt === null &&
    existing.contactName === request.contact.name &&
    existing.contactEmail === (request.contact.email ?? null) &&
    existing.contactPhone === (request.contact.phone ?? null) &&
    existing.note === (request.note || null) &&
    existing.preferredDate === (request.preferredDate ?? null);
  if (same) return toPublicAcceptance(existing);
  const acceptedAt = existing.createdAt.toISOString();
  throw new ServiceError('quote_already_accepted', `This quote was already accepted, at ${acceptedAt}. To change the details, contact the business.`, {
    details: { acceptedAt },
  });
}

/** A client address as the rate-limit table keeps it: a keyed digest, so that the table holds no address (erasure). */
function clientMark(client: string | null): string {
  return client === null ? 'unknown' : createHmac('sha256', derivedKey('acceptance-client')).update(client).digest('base64url').slice(0, 22);
}

/** A day from today on (in any time zone: yesterday in UTC is still today west of it), within two years. */
function dayCanBeAskedFor(day: string, now: Date): boolean {
  const earliest = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const latest = new Date(now.getTime() + 2 * 365 * 86_400_000).toISOString().slice(0, 10);
  return day >= earliest && day <= latest;
}

/** A quote made on the hosted page of this business, or 404 as if it did not exist. */
async function findPublicQuoteOf({ db }: VerbContext, quoteIntentId: string, businessId: string): Promise<StoredQuote> {
  const stored = await findQuote(db, quoteIntentId);
  if (!stored || !stored.intent.idempotencyScope.startsWith('public:') || stored.intent.businessId !== businessId) {
    throw new ServiceError('not_found', `Quote ${quoteIntentId} does not exist.`);
  }
  return stored;
}
