import { randomUUID } from 'node:crypto';
import type { ApiKeyPrincipal } from '../auth/principal';
import type { Db, DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { recordEvent } from '../events/record-event';
import { canonicalHash } from '../hash/canonical-hash';
import type { ProducedQuote, SimulationRequest } from './account-schemas';
import { requireAccountBook } from './account-book';
import { disposeQuote } from './dispose-quote';
import { simulateServices } from './simulate-services';

/**
 * One account per project, the same id in Test and Live; another id answers 404. Routes under
 * /v1/accounts/{id} check it first (`authorize`); the verbs below serve the key's own account.
 */
export function requireAccount(principal: ApiKeyPrincipal, accountId: string): void {
  if (accountId !== principal.projectId) {
    throw new ServiceError('not_found', `No account ${accountId} for this API key.`, { param: 'id' });
  }
}

/** Spec 2.8: the account as this key sees it. */
export async function getAccount(db: DbOrTx, principal: ApiKeyPrincipal) {
  const project = await db.project.findUniqueOrThrow({ where: { id: principal.projectId }, select: { id: true, name: true, entitlements: true } });
  return {
    object: 'account' as const,
    id: project.id,
    name: project.name,
    environment: principal.environment,
    scopes: principal.scopes,
    entitlements: project.entitlements,
  };
}

/** POST /v1/accounts/{id}/quote-simulations: prices, explains, stores nothing. */
export async function simulateQuote(db: DbOrTx, principal: ApiKeyPrincipal, request: SimulationRequest) {
  return simulateServices(await requireAccountBook(db, principal), request);
}

/** GET /v1/accounts/{id}/quote-spec: what can be asked, by id and label, for the published version. */
export async function getQuoteSpec(db: DbOrTx, principal: ApiKeyPrincipal) {
  const book = await requireAccountBook(db, principal);
  const { artifact } = book.version.book;
  const factors = new Map(artifact.factors.map((f) => [f.id, f]));
  return {
    object: 'quote_spec' as const,
    book: { key: book.key, version: book.version.number, currency: artifact.currency, artifact_hash: book.version.artifactHash },
    autonomy: artifact.autonomy,
    services: artifact.offerings.map((o) => ({
      service: o.id,
      label: o.label,
      description: o.description ?? null,
      selections: o.factorIds.map((id) => {
        const f = factors.get(id)!;
        return {
          selection: f.id,
          label: f.label,
          required: f.required,
          unknown_allowed: f.whenUnknown.action === 'assume',
          options: f.options.map((option) => ({ value: option.id, label: option.label, requires_inspection: option.requiresInspection ?? false })),
        };
      }),
    })),
    conditions: artifact.conditions,
  };
}

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
  db: Db,
  principal: ApiKeyPrincipal,
  input: { idempotencyKey: string; request: SimulationRequest },
  now: Date,
): Promise<{ quote: ProducedQuote; replayed: boolean }> {
  const fingerprint = canonicalHash(input.request);
  const existing = await findByKey(db, principal, input.idempotencyKey);
  if (existing) return replay(existing, fingerprint);

  const book = await requireAccountBook(db, principal);
  const simulation = simulateServices(book, input.request);
  const { disposition, state } = disposeQuote(simulation, book.version.book.artifact.autonomy);
  const unpriced =
    disposition !== 'unpriced'
      ? null
      : simulation.decision === 'needs_input'
        ? { code: 'needs_input', message: `Missing answers: ${simulation.missing_inputs.map((m) => `${m.service}.${m.selection}`).join(', ') || 'see warnings'}.` }
        : { code: simulation.warnings[0]?.code ?? simulation.decision, message: simulation.warnings[0]?.message ?? 'The quote could not be priced.' };
  const quote: ProducedQuote = {
    object: 'quote',
    quote_id: randomUUID(),
    state,
    disposition,
    decision: simulation.decision,
    pricing_mode: simulation.pricing_mode,
    total: { low_cents: simulation.total.low_cents, high_cents: simulation.total.high_cents },
    currency: simulation.total.currency,
    book: { version_id: book.version.id },
    message: unpriced ? `${MESSAGES.new} ${unpriced.message}` : MESSAGES[state],
    unpriced_reason: unpriced,
    created: now.toISOString(),
  };
  // The quote and its event commit together; a concurrent request with the same key loses the
  // insert (ON CONFLICT) and answers as a replay.
  const created = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO account_quotes (id, project_id, environment_id, book_version_id, idempotency_key, request_fingerprint,
        state, disposition, low_cents, high_cents, response, api_key_id, created_at)
      VALUES (${quote.quote_id}::uuid, ${principal.projectId}::uuid, ${principal.environmentId}::uuid, ${quote.book.version_id}::uuid,
        ${input.idempotencyKey}, ${fingerprint}, ${state}, ${disposition}, ${quote.total.low_cents}::bigint, ${quote.total.high_cents}::bigint,
        ${JSON.stringify(quote)}::jsonb, ${principal.keyId}::uuid, ${now}::timestamptz)
      ON CONFLICT (environment_id, idempotency_key) DO NOTHING
      RETURNING id`;
    if (rows.length === 0) return false;
    await recordEvent(
      tx,
      {
        type: 'account_quote.created',
        workspaceId: principal.workspaceId,
        projectId: principal.projectId,
        environmentId: principal.environmentId,
        subjectId: quote.quote_id,
        data: { quote },
      },
      now,
    );
    return true;
  });
  if (created) return { quote, replayed: false };
  const winner = await findByKey(db, principal, input.idempotencyKey);
  if (!winner) throw new Error('idempotency conflict without a stored quote');
  return replay(winner, fingerprint);
}

function findByKey(db: DbOrTx, principal: ApiKeyPrincipal, idempotencyKey: string) {
  return db.accountQuote.findUnique({
    where: { environmentId_idempotencyKey: { environmentId: principal.environmentId, idempotencyKey } },
    select: { requestFingerprint: true, response: true },
  });
}

function replay(stored: { requestFingerprint: string; response: unknown }, fingerprint: string) {
  if (stored.requestFingerprint !== fingerprint) {
    throw new ServiceError('idempotency_conflict', 'This Idempotency-Key was already used with a different request.', {
      param: 'Idempotency-Key',
    });
  }
  return { quote: stored.response as ProducedQuote, replayed: true };
}

/**
 * POST …/quotes/{quoteId}/commitment/confirm: Live only, on a `quoted` quote. Idempotent: the
 * same external_ref confirms again with the same answer; another one answers 409.
 */
export async function confirmCommitment(
  db: Db,
  principal: ApiKeyPrincipal,
  input: { quoteId: string; externalRef: string },
  now: Date,
) {
  if (principal.environment !== 'live') {
    throw new ServiceError('forbidden', 'Commitments can only be confirmed with a Live API key.');
  }
  return db.$transaction(async (tx) => {
    const [quote] = await tx.$queryRaw<{ id: string; state: string }[]>`
      SELECT id::text, state FROM account_quotes
      WHERE id = ${input.quoteId}::uuid AND environment_id = ${principal.environmentId}::uuid FOR UPDATE`;
    if (!quote) throw new ServiceError('not_found', `No quote ${input.quoteId} in this account.`, { param: 'quoteId' });
    const existing = await tx.commitment.findUnique({ where: { accountQuoteId: quote.id } });
    if (existing) {
      if (existing.externalRef !== input.externalRef) {
        throw new ServiceError('conflict', 'This quote is already committed with another external_ref.', { param: 'external_ref' });
      }
      return toCommitment(existing, quote.id);
    }
    if (quote.state !== 'quoted') {
      throw new ServiceError('conflict', `Only a quoted quote can be committed; this one is ${quote.state}.`, { param: 'quoteId' });
    }
    const created = await tx.commitment.create({ data: { accountQuoteId: quote.id, externalRef: input.externalRef, confirmedAt: now } });
    const commitment = toCommitment(created, quote.id);
    await recordEvent(
      tx,
      {
        type: 'commitment.confirmed',
        workspaceId: principal.workspaceId,
        projectId: principal.projectId,
        environmentId: principal.environmentId,
        subjectId: quote.id,
        data: { commitment },
      },
      now,
    );
    return commitment;
  });
}

function toCommitment(row: { id: string; externalRef: string; confirmedAt: Date }, quoteId: string) {
  return {
    object: 'commitment' as const,
    commitment_id: row.id,
    quote_id: quoteId,
    external_ref: row.externalRef,
    confirmed: true,
    confirmed_at: row.confirmedAt.toISOString(),
  };
}

/** GET /v1/accounts/{id}/request-logs: this account's requests in the key's environment. */
export async function listAccountRequestLogs(
  db: DbOrTx,
  principal: ApiKeyPrincipal,
  input: { limit: number; cursor?: string },
) {
  const rows = await db.requestLog.findMany({
    where: { projectId: principal.projectId, environmentId: principal.environmentId, ...(input.cursor ? { id: { lt: BigInt(input.cursor) } } : {}) },
    orderBy: { id: 'desc' },
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return {
    object: 'list' as const,
    data: page.map((r) => ({
      request_id: r.requestId,
      method: r.method,
      path: r.path,
      status: r.status,
      error_code: r.errorCode,
      api_key_id: r.apiKeyId,
      latency_ms: r.latencyMs,
      created: r.createdAt.toISOString(),
    })),
    has_more: rows.length > input.limit,
    next_cursor: rows.length > input.limit ? String(page[page.length - 1].id) : null,
  };
}
