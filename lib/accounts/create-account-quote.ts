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
