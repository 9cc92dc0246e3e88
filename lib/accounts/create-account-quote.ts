import { randomUUID } from 'node:crypto';
import { tenancyOfKey, type ApiKeyPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { canonicalHash } from '../hash/canonical-hash';
import { createOnce } from '../idempotency/create-once';
import type { ReceiptSignature } from '../receipts/schemas';
import type { ProducedQuote, SimulationRequest } from './account-schemas';
import { requireAccountBook, type AccountBook, type PublishedAccountBook } from './account-book';
import { findBookVersion } from '../books/published-version';
import { assignQuote } from '../experiments/running-experiment';
import { disposeQuote } from './dispose-quote';
import { simulateServices } from './simulate-services';
import { findAccountQuoteByKey, insertAccountQuote, type AccountQuoteRow } from './store';
import { signDocument } from '../receipts/receipt-signature';
import { priceValidUntil } from '../quotes/validity';
import { queueOwnerNotification } from '../notifications/queue-owner-notification';
import { currentReceiptSigner, forgetReceiptSigner } from '../receipts/signing-keys';

/** A quote made now: always signed (only quotes stored before signing have none). */
type SignedQuote = ProducedQuote & { signature: ReceiptSignature };

const MESSAGES: Record<ProducedQuote['state'], string> = {
  quoted: 'The quote is ready to send to the customer.',
  awaiting_approval: 'The quote is held for the business to review before it is sent.',
  observed: 'The quote is recorded for observation; nothing is sent.',
  new: 'The quote is recorded without a price.',
};

/**
 * POST /v1/accounts/{id}/quotes: a persisted quote with its disposition. The Idempotency-Key
 * is shared by sibling keys of the account and environment: the same key and body replay the
 * stored answer; another body answers 409. Concurrent duplicates create one quote. With nothing
 * published in the key's environment it answers 404 and stores nothing (a stored replay still wins).
 */
export async function createAccountQuote(
  ctx: VerbContext<ApiKeyPrincipal>,
  input: StoreInput,
): Promise<{ quote: ProducedQuote; replayed: boolean }> {
  const { db, principal, now } = ctx;
  const fingerprint = canonicalHash(input.request);
  const { answer, replayed } = await createOnce({
    fingerprint,
    find: () => findAccountQuoteByKey(db, { environmentId: principal.environmentId, idempotencyKey: input.idempotencyKey }),
    fingerprintOf: (stored) => stored.requestFingerprint,
    replay: (stored) => stored.response as ProducedQuote,
    conflict: () =>
      new ServiceError('idempotency_conflict', 'This Idempotency-Key was already used with a different request.', { param: 'Idempotency-Key' }),
    create: async () => {
      const quote = await produceQuote(ctx, input);
      const created = await storeQuote(ctx, quote, input, fingerprint);
      return created ? { created: quote } : 'key_taken';
    },
  });
  return { quote: answer, replayed };
}

/**
 * Prices the request against the key's published book (or, when an experiment running on it
 * covers the account surface and every service asked for, the version of the subject's arm)
 * and decides what happens to the quote.
 */
async function produceQuote(ctx: VerbContext<ApiKeyPrincipal>, { request, idempotencyKey, subject }: StoreInput): Promise<SignedQuote> {
  const published = await requireAccountBook(ctx);
  const offeringIds = request.services.map((s) => s.service);
  const assignment = assignQuote(published.experiment, { surface: 'account', offeringIds }, subject ?? idempotencyKey, ctx.now);
  const book = assignment ? await armBook(ctx, published, assignment.versionId) : published;
  const simulation = simulateServices(book, request);
  const { disposition, state } = disposeQuote(simulation, book.version.book.artifact.autonomy);
  const unpriced =
    disposition !== 'unpriced'
      ? null
      : simulation.decision === 'needs_input'
        ? { code: 'needs_input', message: `Missing answers: ${simulation.missing_inputs.map((m) => `${m.service}.${m.selection}`).join(', ') || 'see warnings'}.` }
        : { code: simulation.warnings[0]?.code ?? simulation.decision, message: simulation.warnings[0]?.message ?? 'The quote could not be priced.' };
  const quote: Omit<ProducedQuote, 'signature'> = {
    object: 'quote',
    quote_id: randomUUID(),
    state,
    disposition,
    decision: simulation.decision,
    pricing_mode: simulation.pricing_mode,
    total: { low_cents: simulation.total.low_cents, high_cents: simulation.total.high_cents },
    currency: simulation.total.currency,
    book: { version_id: book.version.id },
    ...(assignment
      ? { experiment: { experiment_id: assignment.experimentId, arm: assignment.arm, bucket: assignment.bucket, subject_digest: assignment.subjectDigest } }
      : {}),
    message: unpriced ? `${MESSAGES.new} ${unpriced.message}` : MESSAGES[state],
    unpriced_reason: unpriced,
    created: ctx.now.toISOString(),
    expires_at: simulation.decision === 'priced' ? (priceValidUntil(ctx.now, book.version.book.artifact.quoteValidityDays)?.toISOString() ?? null) : null,
  };
  return { ...quote, signature: signDocument(await currentReceiptSigner(ctx.db, ctx.now), quote) };
}

/**
 * The quote and its event commit together; a concurrent request with the same key loses the
 * insert (ON CONFLICT) and gets false. One statement per try, the signing key re-checked in it.
 */
async function storeQuote(ctx: VerbContext<ApiKeyPrincipal>, quote: SignedQuote, input: StoreInput, fingerprint: string): Promise<boolean> {
  const { principal, now } = ctx;
  return withTransaction(ctx, async ({ db: tx }) => {
    let written = await insertAccountQuote(tx, accountQuoteRow(ctx, quote, input, fingerprint), quote.signature.kid);
    if (written === 'signer_retired') {
      // Signed with a remembered key that a rotation elsewhere retired since: sign with the new one.
      forgetReceiptSigner();
      quote.signature = signDocument(await currentReceiptSigner(tx, now), quote);
      written = await insertAccountQuote(tx, accountQuoteRow(ctx, quote, input, fingerprint), quote.signature.kid);
    }
    if (written === 'signer_retired') throw new ServiceError('conflict', 'The receipt signing key changed while this quote was being made. Retry the request.');
    if (written === 'key_taken') return false;
    await recordEvent(
      { db: tx, now },
      {
        type: 'account_quote.created',
        ...tenancyOfKey(principal),
        subjectId: quote.quote_id,
        data: { quote },
      },
    );
    if (quote.state === 'awaiting_approval' && principal.environment === 'live') {
      await queueOwnerNotification(tx, { kind: 'held_quote', projectId: principal.projectId, subjectId: quote.quote_id, now });
    }
    return true;
  });
}

type StoreInput = {
  idempotencyKey: string;
  request: SimulationRequest;
  /** `Quote-Subject`: who is priced, for experiments; the idempotency key when absent. */
  subject?: string;
};

/** The book as the arm's version prices it (the control's is usually the one published). */
async function armBook(ctx: VerbContext<ApiKeyPrincipal>, published: PublishedAccountBook, versionId: string): Promise<AccountBook> {
  if (versionId === published.version.id) return published;
  const version = await findBookVersion(ctx.db, published.version.bookId, versionId);
  // A running experiment's arms are versions of its book, which are never deleted.
  if (!version) throw new Error(`experiment arm version ${versionId} is not a version of book ${published.version.bookId}`);
  return { key: published.key, version };
}

function accountQuoteRow(
  { principal, now }: VerbContext<ApiKeyPrincipal>,
  quote: SignedQuote,
  { idempotencyKey, request }: StoreInput,
  fingerprint: string,
): AccountQuoteRow {
  return {
    id: quote.quote_id,
    projectId: principal.projectId,
    environmentId: principal.environmentId,
    bookVersionId: quote.book.version_id,
    idempotencyKey,
    requestFingerprint: fingerprint,
    state: quote.state,
    disposition: quote.disposition,
    lowCents: quote.total.low_cents,
    highCents: quote.total.high_cents,
    response: quote,
    request,
    apiKeyId: principal.keyId,
    expiresAt: quote.expires_at ? new Date(quote.expires_at) : null,
    experiment: quote.experiment ?? null,
    createdAt: now,
  };
}
