import type { Principal } from '../../auth/principal';
import { ServiceError } from '../../errors/service-error';
import { RATE_LIMITS, rateLimitedError } from '../../ratelimit/registry';
import type { RouteContract } from '../contract';
import { brieflyUnavailable, internalError } from './respond';

/**
 * `Test-Fault`: a request made with a Test key may ask for the failure an integration must
 * survive, so that it meets it in Test before production: `rate_limited` (429), `server_error`
 * (500), `unavailable` (503), or `delay=<ms>` (handled as usual, answered that much later). The
 * answer is what that failure looks like in production; a failure is answered before anything
 * is counted or written, and the request log keeps what was asked (`testFault`). On a route an
 * API key may call, Live keys and callers without a key are refused (400): Live is never
 * disturbed on purpose. Routes no key may call (anonymous, member-only) ignore the header.
 */
export const TEST_FAULT_HEADER = 'test-fault';
export const TEST_FAULTS = ['rate_limited', 'server_error', 'unavailable', 'delay=<ms>'] as const;
export const MAX_TEST_DELAY_MS = 30_000;

export type TestFault = { kind: 'rate_limited' | 'server_error' | 'unavailable'; asked: string } | { kind: 'delay'; ms: number; asked: string };

/** Routes an API key may call: they take `Test-Fault`. */
export const takesApiKey = (contract: RouteContract) => contract.auth === 'api_key' || contract.auth === 'session_or_api_key';

/** The fault the request asks for, null when none; 400 when it may not ask or asks for something unknown. */
export function requestedTestFault(request: Request, principal: Principal, contract: RouteContract): TestFault | null {
  const value = request.headers.get(TEST_FAULT_HEADER);
  if (value === null || !takesApiKey(contract)) return null;
  if (principal.kind !== 'api_key') {
    throw new ServiceError('invalid_request', 'Test-Fault works only with a Test API key.', { param: 'Test-Fault' });
  }
  if (principal.environment !== 'test') {
    throw new ServiceError('invalid_request', 'Test-Fault is refused with a Live key: Live is never disturbed on purpose. Use a Test key.', { param: 'Test-Fault' });
  }
  const asked = value.trim();
  if (asked === 'rate_limited' || asked === 'server_error' || asked === 'unavailable') return { kind: asked, asked };
  const delay = /^delay=(\d{1,5})$/.exec(asked);
  if (delay && Number(delay[1]) <= MAX_TEST_DELAY_MS) return { kind: 'delay', ms: Number(delay[1]), asked };
  throw new ServiceError(
    'invalid_request',
    `Test-Fault must be one of ${TEST_FAULTS.join(', ')} (a delay of at most ${MAX_TEST_DELAY_MS} ms), not "${asked.slice(0, 50)}".`,
    { param: 'Test-Fault' },
  );
}

/** The failure as production answers it: the same code, message, status and headers. */
export function injectedFailure(fault: TestFault & { kind: 'rate_limited' | 'server_error' | 'unavailable' }, contract: RouteContract, requestId: string): ServiceError {
  switch (fault.kind) {
    case 'rate_limited': {
      // The route's own quota when it declares one (its limit in the headers), else a plain back-off.
      const limit = contract.rateLimits?.[0];
      return rateLimitedError(1, limit ? RATE_LIMITS[limit.name].points : undefined);
    }
    case 'server_error':
      return internalError(requestId);
    case 'unavailable':
      return brieflyUnavailable();
  }
}

export const waitFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
