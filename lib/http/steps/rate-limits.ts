import type { Principal } from '../../auth/principal';
import { getDb } from '../../db/client';
import { spendAllowance } from '../../ratelimit/registry';
import type { RateLimitDeclaration } from '../contract';

/**
 * The contract's account quotas, counted right after authentication: every request of an
 * account counts, valid or not. Returns the `ratelimit-*` headers every answer carries.
 */
export async function consumeQuotas(limits: readonly RateLimitDeclaration[] | undefined, principal: Principal): Promise<Record<string, string>> {
  let headers: Record<string, string> = {};
  if (principal.kind !== 'api_key') return headers;
  for (const limit of limits ?? []) {
    if (limit.countBy !== 'account') continue;
    const quota = await spendAllowance(getDb(), limit.name, `${principal.projectId}:${principal.environment}`);
    headers = { 'ratelimit-limit': String(quota.limit), 'ratelimit-remaining': String(quota.remaining), 'ratelimit-reset': String(quota.resetSeconds) };
  }
  return headers;
}
