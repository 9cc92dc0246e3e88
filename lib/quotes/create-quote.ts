import { randomUUID } from 'node:crypto';
import { compiled } from '../books/published-version';
import type { ApiKeyPrincipal, Principal } from '../auth/principal';
import type { SystemPrincipal, VerbContext } from '../context/verb-context';
import { canonicalHash } from '../hash/canonical-hash';
import type { EventType } from '../events/event-types';
import { outboxEventRow } from '../events/record-event';
import { payloadWithoutReceiptParts, type OutboxEventRow } from '../events/store';
import { ServiceError } from '../errors/service-error';
import { assignQuote } from '../experiments/running-experiment';
import { createOnce } from '../idempotency/create-once';
import type { QuoteInputs } from '../pricing';
import { knownSpentRefusal, type KeyedLimit } from '../ratelimit/registry';
import { CURRENT_RECEIPT_FORMAT } from '../receipts/receipt-format';
import { signDocument } from '../receipts/receipt-signature';
import { currentReceiptSigner, forgetReceiptSigner } from '../receipts/signing-keys';
import { asOf } from './expire-quote-intents';
import { priceQuote, pricedFields } from './quote-outcome';
import { toQuoteResult } from './quote-views';
import { priceValidUntil } from './validity';
import { surfaceUnavailable, type QuoteScope, type ScopeResolver } from './resolve-quote-scope';
import type { QuoteResult } from './schemas';
import { findQuoteByKey, insertQuote, rememberStoredKey, type QuoteIntentRow, type QuoteReceiptRow, type StoredQuote } from './store';

/** How long an intent that requires input stays answerable before it expires. */
const REQUIRES_INPUT_TTL_MS = 24 * 60 * 60 * 1000;

/** A verb context, and when the request arrived (the receipt's latency). */
export type QuoteContext<P extends Principal | SystemPrincipal = Principal | SystemPrincipal> = VerbContext<P> & { startedAt: number };

export type CreateQuoteInput = {
  resolveScope: ScopeResolver;
  source: 'hosted' | 'api';
  /** Which of an experiment's surfaces the quote comes from (members' quotes are recorded as `hosted`). */
  surface: 'hosted' | 'api' | 'member';
  /** Callers that share a namespace of idempotency keys: `api`, `public:<id>`, `member:<id>`. */
  idempotencyScope: string;
  inputs: QuoteInputs;
  idempotencyKey?: string;
  /** The request fields that make two requests "the same payload" (spec 4.4). */
  payload: Record<string, unknown>;
  /** The caller's API key: the insert re-checks it when authentication took it from memory. */
  apiKey?: ApiKeyPrincipal;
  /**
   * Who is priced, for experiments (docs/experiments.md): the API's `Quote-Subject` header, the
   * hosted page's visitor id. Absent: the quote's idempotency key. Only its digest is kept.
   */
  subject?: string;
  /** The public route answers 404 when nothing is published; the others record a failed receipt. */
  whenUnpublished: 'failed_receipt' | 'surface_unavailable';
  /**
   * A rate limit each new quote counts against (public quotes: per business), spent by the
   * quote's insert: a replay found before it is neither counted nor refused.
   */
  limit?: KeyedLimit;
};

/** Scopes or signing keys found stale this many times in a row (publishes or rotations racing the quote) give up. */
const MAX_SCOPE_ATTEMPTS = 3;

/**
 * Creates a Quote Intent and its immutable Receipt against the version published now in the
 * scope's environment, or replays the intent an idempotency key already names.
 * Intent, receipt and outcome event are written by one statement (insertQuote), so they exist
 * together or not at all, and 50 concurrent requests with one key still create one intent. The
 * statement also re-checks the scope (a remembered one may be stale): if the publication or
 * connection changed, nothing is written and the quote is made again on a fresh scope.
 */
export async function createQuote(
  ctx: QuoteContext,
  input: CreateQuoteInput,
): Promise<{ result: QuoteResult; replayed: boolean; scope: QuoteScope }> {
  const idempotencyKey = input.idempotencyKey ?? `auto_${randomUUID()}`;
  let scope = await input.resolveScope(false);
  let keyTaken = false;
  // Past a limit this process saw spent, a new quote is refused before it is priced; a replay is
  // still answered, so the key is looked up first.
  const refusal = input.limit ? knownSpentRefusal(input.limit) : null;
  const fingerprint = canonicalHash(input.payload);
  const { answer, replayed } = await createOnce({
    fingerprint,
    // A fresh scope query already looked for an intent under the key; a remembered one did not,
    // and the insert finds out instead.
    find: async () =>
      input.idempotencyKey && (keyTaken || refusal || scope.existingIntentId)
        ? findQuoteByKey(ctx.db, { environmentId: scope.environmentId, idempotencyScope: input.idempotencyScope, idempotencyKey })
        : null,
    fingerprintOf: (stored) => stored.intent.requestFingerprint,
    conflict: () => new ServiceError('idempotency_conflict', `Idempotency key "${idempotencyKey}" was already used with a different request.`),
    replay: (stored) => toQuoteResult(asOf(stored.intent, ctx.now), stored.receipt),
    create: async () => {
      if (refusal) throw refusal;
      for (let attempt = 1; ; attempt++) {
        const quote = await price(ctx, input, scope, { idempotencyKey, fingerprint });
        const result = await sign(ctx, quote);
        const written = await insertQuote(ctx.db, quote, outcomeEvent(quote, result, ctx.now), {
          apiKey: input.apiKey ?? null,
          bookMustBePrimary: scope.bookMustBePrimary,
          publishedVersionId: scope.publishedVersionId,
          experimentId: scope.experiment === undefined ? undefined : (scope.experiment?.id ?? null),
          experimentPauses: scope.experiment?.arms.filter((arm) => arm.pausedAt).length ?? 0,
          limit: input.limit,
        });
        if (written === 'key_refused') throw new ServiceError('invalid_api_key', 'This API key is no longer valid.');
        // The next request under this key reads its scope fresh, which finds the quote (rememberedScope).
        if ((written === 'inserted' || written === 'key_taken') && input.idempotencyKey) {
          rememberStoredKey(scope.environmentId, { scope: input.idempotencyScope, key: idempotencyKey });
        }
        if (written === 'inserted') return { created: result };
        if (written === 'signer_retired' && attempt < MAX_SCOPE_ATTEMPTS) {
          // Another process rotated the signing key: sign again with the new one.
          forgetReceiptSigner();
          continue;
        }
        if (written === 'key_taken' || attempt >= MAX_SCOPE_ATTEMPTS) {
          keyTaken = written === 'key_taken';
          if (keyTaken) return 'key_taken';
          throw new ServiceError('conflict', written === 'signer_retired'
            ? 'The receipt signing key changed while this quote was being made. Retry the request.'
            : 'The price book changed while this quote was being made. Retry the request.');
        }
        scope = await input.resolveScope(true);
        if (input.idempotencyKey && scope.existingIntentId) return 'key_taken';
      }
    },
  });
  return { result: answer, replayed, scope };
}

/**
 * Prices the request against the scope's published version, or, when an experiment running on
 * that publication covers the offering, against the version of the subject's arm (assigned from
 * the scope's memory: no table is read). The intent and receipt to write.
 */
async function price(
  ctx: QuoteContext,
  input: CreateQuoteInput,
  scope: QuoteScope,
  { idempotencyKey, fingerprint }: { idempotencyKey: string; fingerprint: string },
): Promise<StoredQuote> {
  if (!scope.publishedVersionId && input.whenUnpublished === 'surface_unavailable') throw surfaceUnavailable();
  const assignment = assignQuote(scope.experiment ?? null, { surface: input.surface, offeringIds: [input.inputs.offeringId] }, input.subject ?? idempotencyKey, ctx.now);
  const versionId = assignment?.versionId ?? scope.publishedVersionId;
  const book = versionId ? await compiled(ctx.db, versionId) : null;
  const outcome = priceQuote(book, input.inputs);
  const { now, requestId } = ctx;
  const intent: QuoteIntentRow = {
    id: randomUUID(),
    workspaceId: scope.workspaceId,
    projectId: scope.projectId,
    environmentId: scope.environmentId,
    bookId: scope.bookId,
    bookVersionId: versionId,
    businessId: scope.businessId,
    status: outcome.outcome,
    source: input.source,
    idempotencyScope: input.idempotencyScope,
    idempotencyKey,
    requestFingerprint: fingerprint,
    requestCorrelationId: requestId,
    inputs: input.inputs,
    expiresAt:
      outcome.outcome === 'requires_input'
        ? new Date(now.getTime() + REQUIRES_INPUT_TTL_MS)
        : outcome.outcome === 'succeeded'
          ? priceValidUntil(now, book!.artifact.quoteValidityDays)
          : null,
    experimentId: assignment?.experimentId ?? null,
    experimentArm: assignment?.arm ?? null,
    totalMinor: outcome.outcome === 'succeeded' ? String(outcome.computation.totalMinor) : null,
    currency: outcome.outcome === 'succeeded' ? outcome.computation.currency : null,
    createdAt: now,
    updatedAt: now,
  };
  const receipt: QuoteReceiptRow = {
    id: randomUUID(),
    quoteIntentId: intent.id,
    ...pricedFields(outcome),
    source: input.source,
    bookVersionId: versionId,
    idempotencyKey,
    requestCorrelationId: requestId,
    latencyMs: Math.max(0, Math.round(performance.now() - ctx.startedAt)),
    createdAt: now,
    signatureKid: null,
    signature: null,
    formatVersion: CURRENT_RECEIPT_FORMAT,
    // Keys in canonical order (the receipt's JSON is its canonical JSON).
    experiment: assignment
      ? { arm: assignment.arm, bucket: assignment.bucket, experimentId: assignment.experimentId, subjectDigest: assignment.subjectDigest }
      : null,
  };
  return { intent, receipt };
}

/**
 * Signs the receipt as the API answers it (docs/receipts.md) and keeps the signature on the row:
 * it is stored once with the receipt and never recomputed. Returns the signed answer.
 */
async function sign(ctx: QuoteContext, quote: StoredQuote): Promise<QuoteResult> {
  const signer = await currentReceiptSigner(ctx.db, ctx.now);
  const result = toQuoteResult(quote.intent, quote.receipt);
  const signature = signDocument(signer, result.quoteReceipt);
  quote.receipt.signatureKid = signature.kid;
  quote.receipt.signature = signature.value;
  result.quoteReceipt.signature = signature;
  return result;
}

/**
 * The `quote_intent.<outcome>` event: its payload is the quote as the API answers it, stored
 * without the computation its receipt holds (deliveries put it back).
 */
function outcomeEvent(quote: StoredQuote, result: QuoteResult, now: Date): OutboxEventRow {
  const row = outboxEventRow(
    {
      type: `quote_intent.${quote.receipt.outcome}` satisfies EventType,
      workspaceId: quote.intent.workspaceId,
      projectId: quote.intent.projectId,
      environmentId: quote.intent.environmentId,
      businessId: quote.intent.businessId,
      subjectId: quote.intent.id,
      data: payloadWithoutReceiptParts(result),
    },
    now,
  );
  return { ...row, receiptId: quote.receipt.id };
}
