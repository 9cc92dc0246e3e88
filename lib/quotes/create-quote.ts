import { randomUUID } from 'node:crypto';
import { compiled } from '../books/published-version';
import type { ApiKeyPrincipal, Principal } from '../auth/principal';
import type { SystemPrincipal, VerbContext } from '../context/verb-context';
import { canonicalHash } from '../hash/canonical-hash';
import type { EventType } from '../events/catalogue';
import { outboxEventRow } from '../events/record-event';
import { ServiceError } from '../errors/service-error';
import { createOnce } from '../idempotency/create-once';
import { evaluate, type Outcome, type QuoteInputs } from '../pricing';
import { expireIfDue } from './expire-quote-intents';
import { toQuoteResult } from './quote-views';
import { surfaceUnavailable, type QuoteScope, type ScopeResolver } from './resolve-quote-scope';
import type { QuoteResult } from './schemas';
import { findQuoteByKey, insertQuote, type QuoteIntentRow, type QuoteReceiptRow, type StoredQuote } from './store';

/** How long an intent that requires input stays answerable before it expires. */
const REQUIRES_INPUT_TTL_MS = 24 * 60 * 60 * 1000;

/** The engine's outcome, or the receipt-level failure of having nothing published. */
type QuoteOutcome = Outcome | { outcome: 'failed'; failure: { code: 'no_published_version'; message: string } };

/** A verb context, and when the request arrived (the receipt's latency). */
export type QuoteContext<P extends Principal | SystemPrincipal = Principal | SystemPrincipal> = VerbContext<P> & { startedAt: number };

export type CreateQuoteInput = {
  resolveScope: ScopeResolver;
  source: 'hosted' | 'api';
  /** Callers that share a namespace of idempotency keys: `api`, `public:<id>`, `member:<id>`. */
  idempotencyScope: string;
  inputs: QuoteInputs;
  idempotencyKey?: string;
  /** The request fields that make two requests "the same payload" (spec 4.4). */
  payload: Record<string, unknown>;
  /** The caller's API key: the insert re-checks it when authentication took it from memory. */
  apiKey?: ApiKeyPrincipal;
  /** The public route answers 404 when nothing is published; the others record a failed receipt. */
  whenUnpublished: 'failed_receipt' | 'surface_unavailable';
};

/** Scopes found stale this many times in a row (publishes racing the quote) give up. */
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
  const fingerprint = canonicalHash(input.payload);
  const { answer, replayed } = await createOnce({
    fingerprint,
    // A fresh scope query already looked for an intent under the key; a remembered one did not,
    // and the insert finds out instead.
    find: async () =>
      input.idempotencyKey && (keyTaken || scope.existingIntentId)
        ? findQuoteByKey(ctx.db, { environmentId: scope.environmentId, idempotencyScope: input.idempotencyScope, idempotencyKey })
        : null,
    fingerprintOf: (stored) => stored.intent.requestFingerprint,
    conflict: () => new ServiceError('idempotency_conflict', `Idempotency key "${idempotencyKey}" was already used with a different request.`),
    replay: async (stored) => toQuoteResult(await expireIfDue(ctx.db, stored.intent, ctx.now), stored.receipt),
    create: async () => {
      for (let attempt = 1; ; attempt++) {
        const quote = await price(ctx, input, scope, { idempotencyKey, fingerprint });
        const result = toQuoteResult(quote.intent, quote.receipt);
        const written = await insertQuote(ctx.db, quote, outcomeEvent(quote, result, ctx.now), {
          apiKey: input.apiKey ?? null,
          bookMustBePrimary: scope.bookMustBePrimary,
        });
        if (written === 'key_refused') throw new ServiceError('invalid_api_key', 'This API key is no longer valid.');
        if (written === 'inserted') return { created: result };
        if (written === 'key_taken' || attempt >= MAX_SCOPE_ATTEMPTS) {
          keyTaken = written === 'key_taken';
          if (keyTaken) return 'key_taken';
          throw new ServiceError('conflict', 'The price book changed while this quote was being made. Retry the request.');
        }
        scope = await input.resolveScope(true);
        if (input.idempotencyKey && scope.existingIntentId) return 'key_taken';
      }
    },
  });
  return { result: answer, replayed, scope };
}

/** Prices the request against the scope's published version: the intent and receipt to write. */
async function price(
  ctx: QuoteContext,
  input: CreateQuoteInput,
  scope: QuoteScope,
  { idempotencyKey, fingerprint }: { idempotencyKey: string; fingerprint: string },
): Promise<StoredQuote> {
  const versionId = scope.publishedVersionId;
  if (!versionId && input.whenUnpublished === 'surface_unavailable') throw surfaceUnavailable();
  const outcome: QuoteOutcome = versionId
    ? evaluate(await compiled(ctx.db, versionId), input.inputs)
    : { outcome: 'failed', failure: { code: 'no_published_version', message: 'No book version is published in this environment.' } };
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
    expiresAt: outcome.outcome === 'requires_input' ? new Date(now.getTime() + REQUIRES_INPUT_TTL_MS) : null,
    createdAt: now,
    updatedAt: now,
  };
  const receipt: QuoteReceiptRow = {
    id: randomUUID(),
    quoteIntentId: intent.id,
    outcome: outcome.outcome,
    source: input.source,
    bookVersionId: versionId,
    computation: outcome.outcome === 'succeeded' ? outcome.computation : null,
    missingInputs: outcome.outcome === 'requires_input' ? outcome.missingInputs : [],
    failure: outcome.outcome === 'failed' ? outcome.failure : null,
    idempotencyKey,
    requestCorrelationId: requestId,
    latencyMs: Math.max(0, Math.round(performance.now() - ctx.startedAt)),
    createdAt: now,
  };
  return { intent, receipt };
}

/** The `quote_intent.<outcome>` event: its payload is the quote as the API answers it. */
function outcomeEvent(quote: StoredQuote, result: QuoteResult, now: Date) {
  return outboxEventRow(
    {
      type: `quote_intent.${quote.receipt.outcome}` satisfies EventType,
      workspaceId: quote.intent.workspaceId,
      projectId: quote.intent.projectId,
      environmentId: quote.intent.environmentId,
      businessId: quote.intent.businessId,
      subjectId: quote.intent.id,
      data: result,
    },
    now,
  );
}
