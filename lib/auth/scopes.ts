import type { ApiKeyPrincipal } from './principal';
import { ServiceError } from '../errors/service-error';

/** Scopes of the account-scoped surface (spec 5.3). */
export const SCOPES = [
  'accounts:read',
  'quote-spec:read',
  'simulations:write',
  'quotes:write',
  'commitments:write',
  'logs:read',
  /** Not in spec 5.3: a Test key's live stream of its environment's events (GET /v1/event-stream, `qps listen`). */
  'events:listen',
  /** Not in spec 5.3: a Test key's triggered events (POST /v1/event-triggers, `qps trigger`). */
  'events:trigger',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Scopes only a Test key can use (the event stream refuses Live keys): not given to Live keys by default, nor offered for them. */
export const TEST_ONLY_SCOPES: readonly Scope[] = ['events:listen', 'events:trigger'];

/** The scopes a key gets when none are chosen: every one its environment can use. */
export function defaultScopes(environment: 'test' | 'live'): Scope[] {
  return SCOPES.filter((scope) => environment === 'test' || !TEST_ONLY_SCOPES.includes(scope));
}

/** What Test-only scopes allow is refused to a Live key (given such a scope anyway), with `why`. */
export function refuseLiveKey(principal: ApiKeyPrincipal, why: string): void {
  if (principal.environment !== 'test') throw new ServiceError('invalid_request', `${why} Use a Test key.`);
}
