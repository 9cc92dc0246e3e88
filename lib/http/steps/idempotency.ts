import type { Principal } from '../../auth/principal';
import type { Db } from '../../db/client';
import { ServiceError, type ErrorCode } from '../../errors/service-error';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, storedAnswer } from '../../idempotency/idempotent-requests';
import type { Logger } from '../../observability/logger';
import { idempotencyKeyHeaderSchema, notKeptOf, type RouteContract } from '../contract';

/**
 * Runs a write's handler under its `Idempotency-Key` (spec 4.4.4; every write unless its contract
 * says otherwise, lib/http/contract.ts): a retry with the same key and body gets the first answer
 * again, the same key with another body 409 `idempotency_conflict`; without a key the handler just runs. `answer`
 * turns data into the response, the same way for a first answer and a replay.
 */
export async function runIdempotently(
  contract: RouteContract,
  step: { db: Db; request: Request; principal: Principal; body: unknown; now: Date; log: Logger },
  handle: () => Promise<{ status: number; data: unknown; headers?: Record<string, string> }>,
  answer: (status: number, data: unknown, headers?: Record<string, string>) => Response,
): Promise<Response> {
  const idempotency = keyOf(step.request, step.principal, contract.validationCode ?? 'invalid_request');
  if (!idempotency) {
    const { status, data, headers } = await handle();
    return answer(status, data, headers);
  }
  const { db, request, body, now } = step;
  const claim = await claimIdempotencyKey(db, { ...idempotency, method: request.method, path: new URL(request.url).pathname, body }, now);
  if (claim.kind === 'replay') return answer(claim.status, claim.data, { 'idempotent-replayed': 'true' });
  try {
    const { status, data, headers } = await handle();
    await completeIdempotencyKey(db, claim.id, status, withheld(data, notKeptOf(contract)));
    return answer(status, data, headers);
  } catch (error) {
    await releaseIdempotencyKey(db, claim.id).catch((release: unknown) => step.log.error({ err: release }, 'idempotency key not released'));
    throw error;
  }
}

/**
 * A write without a body, retried: its stored answer, before its target is authorized (a deletion
 * that succeeded has no target left to find), or 409 for a key used for another request; null to
 * go on. The answer is the caller's own (the key's scope is theirs), so nothing is shown to anyone new.
 */
export async function replayBeforeAuthorizing(
  contract: RouteContract,
  step: { db: Db; request: Request; principal: Principal; now: Date },
  answer: (status: number, data: unknown, headers?: Record<string, string>) => Response,
): Promise<Response | null> {
  if (contract.body) return null;
  const idempotency = keyOf(step.request, step.principal, contract.validationCode ?? 'invalid_request');
  if (!idempotency) return null;
  const stored = await storedAnswer(step.db, { ...idempotency, method: step.request.method, path: new URL(step.request.url).pathname, body: undefined }, step.now);
  return stored && answer(stored.status, stored.data, { 'idempotent-replayed': 'true' });
}

/**
 * The `Idempotency-Key` of a write, and whose it is: a member's keys are theirs; an API key's
 * belong to its account and environment, so that sibling keys share them; an anonymous caller's
 * belong to the path they wrote to (a customer's acceptance of one quote), so that strangers'
 * keys never meet.
 */
function keyOf(request: Request, principal: Principal, code: ErrorCode): { scope: string; key: string } | null {
  const header = request.headers.get('idempotency-key');
  if (header === null) return null;
  const parsed = idempotencyKeyHeaderSchema.safeParse(header);
  if (!parsed.success) {
    const message = parsed.error.issues[0].message;
    throw new ServiceError(code, `Invalid headers: idempotency-key: ${message}`, {
      details: { fields: { 'idempotency-key': [message] } },
      param: 'idempotency-key',
    });
  }
  const key = parsed.data;
  switch (principal.kind) {
    case 'session':
      return { scope: `user:${principal.userId}`, key };
    case 'api_key':
      return { scope: `account:${principal.projectId}:${principal.environment}`, key };
    case 'anonymous':
      return { scope: `anonymous:${new URL(request.url).pathname}`, key };
  }
}

/** The answer as stored for replays: a one-time secret or personal data is not kept, so a replay gets null there. */
function withheld(data: unknown, paths: string[]): unknown {
  let kept = data;
  for (const path of paths) kept = withoutPath(kept, path.split('.'));
  return kept;
}

function withoutPath(value: unknown, [field, ...rest]: string[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !(field in value)) return value;
  const record = value as Record<string, unknown>;
  return { ...record, [field]: rest.length === 0 ? null : withoutPath(record[field], rest) };
}
