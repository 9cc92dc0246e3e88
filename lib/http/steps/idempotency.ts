import type { Principal } from '../../auth/principal';
import type { Db } from '../../db/client';
import { ServiceError, type ErrorCode } from '../../errors/service-error';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../../idempotency/idempotent-requests';
import type { Logger } from '../../observability/logger';
import { idempotencyKeyHeaderSchema, type RouteContract } from '../contract';

/**
 * Runs an idempotent route's handler under its `Idempotency-Key` (spec 4.4.4): a retry with the
 * same key and body gets the first answer again; without a key the handler just runs. `answer`
 * turns data into the response, the same way for a first answer and a replay.
 */
export async function runIdempotently(
  contract: RouteContract,
  step: { db: Db; request: Request; principal: Principal; body: unknown; now: Date; log: Logger },
  handle: () => Promise<{ status: number; data: unknown; headers?: Record<string, string> }>,
  answer: (status: number, data: unknown, headers?: Record<string, string>) => Response,
): Promise<Response> {
  const idempotency = idempotencyOf(step.request, step.principal, contract.validationCode ?? 'invalid_request');
  if (!idempotency) {
    const { status, data, headers } = await handle();
    return answer(status, data, headers);
  }
  const { db, request, body, now } = step;
  const claim = await claimIdempotencyKey(db, { ...idempotency, method: request.method, path: new URL(request.url).pathname, body }, now);
  if (claim.kind === 'replay') return answer(claim.status, claim.data, { 'idempotent-replayed': 'true' });
  try {
    const { status, data, headers } = await handle();
    await completeIdempotencyKey(db, claim.id, status, withheld(data, contract.idempotent?.shownOnce));
    return answer(status, data, headers);
  } catch (error) {
    await releaseIdempotencyKey(db, claim.id).catch((release: unknown) => step.log.error({ err: release }, 'idempotency key not released'));
    throw error;
  }
}

/**
 * The `Idempotency-Key` of a write, and whose it is: a member's keys are theirs; an API key's
 * belong to its account and environment, so that sibling keys share them.
 */
function idempotencyOf(request: Request, principal: Principal, code: ErrorCode): { scope: string; key: string } | null {
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
      return null;
  }
}

/** The answer as stored for replays: a one-time secret is shown once, so a replay gets null. */
function withheld(data: unknown, shownOnce: string | undefined): unknown {
  return shownOnce && data && typeof data === 'object' ? { ...data, [shownOnce]: null } : data;
}
