import { randomUUID } from 'node:crypto';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { logger } from '../observability/logger';
import { webhookWindow } from './send-window';
import { claimDeliveries, extendLeases, releaseEndpointLease, type ClaimedDelivery, type EndpointTarget } from './store';

// Claims of due deliveries and their leases: what a worker holds while it sends
// (lib/webhooks/deliver-due-webhooks.ts).

/**
 * A claim's lease on its deliveries and their endpoint: renewed every LEASE_RENEW_MS while its
 * worker lives, so it never runs out under a live worker however long its queue takes; a dead
 * worker's runs out within this long, and another worker takes its deliveries over.
 */
export const LEASE_MS = 15_000;
export const LEASE_RENEW_MS = 2_000;
/**
 * Deliveries of one endpoint claimed together, in outbox order, under one lease; `endpoint` is
 * the endpoint as the claim read it (sends read it again once that is more than ENDPOINT_FRESH_MS old).
 */
export type ClaimedGroup = {
  endpointId: string;
  endpoint: EndpointTarget;
  deliveryIds: string[];
  deliveries: ClaimedDelivery[];
  /** Until when the claim holds them; moved on by each renewal. */
  leasedUntil: Date;
  /** This claim, on each delivery it holds: its attempts settle them only while it still does. */
  leaseToken: string;
  /** Whose the endpoint's send lease is. */
  owner: string;
};

/**
 * Claims due deliveries: at most `maxEndpoints` endpoints (those with the oldest due events) and
 * webhookWindow().claimPerEndpoint deliveries of each, oldest events first, and reads what their attempts need
 * in the same statement. An endpoint is claimed with its send lease, for `owner`: another
 * worker's endpoint is skipped until its lease is given back or runs out (endpoints are locked
 * SKIP LOCKED, so two claims at the same moment take different ones), and so is an endpoint the
 * caller is still busy with. The UPDATE re-checks each delivery's lease, so no delivery is
 * claimed twice. With `through`, only that delivery's endpoint is claimed, and only its due
 * deliveries up to that one in outbox order (so the earlier ones still go first).
 */
export async function claimDueDeliveries(
  { db, now }: VerbContext,
  options: { limit?: number; busyEndpoints?: Iterable<string>; maxEndpoints?: number; owner?: string; through?: string } = {},
): Promise<ClaimedGroup[]> {
  const leasedUntil = new Date(now.getTime() + LEASE_MS);
  const owner = options.owner ?? randomUUID();
  const leaseToken = randomUUID();
  const claimed = await claimDeliveries(db, {
    now,
    leasedUntil,
    leaseToken,
    owner,
    busy: [...(options.busyEndpoints ?? [])],
    perEndpoint: webhookWindow().claimPerEndpoint,
    limit: options.limit ?? 100,
    maxEndpoints: options.maxEndpoints ?? 2 ** 31 - 1,
    through: options.through,
  });
  const groups = new Map<string, ClaimedGroup>();
  for (const { url, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at, test_failure_mode, ...delivery } of claimed) {
    let group = groups.get(delivery.endpoint_id);
    if (!group) {
      const endpoint = { url, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at, test_failure_mode };
      group = { endpointId: delivery.endpoint_id, endpoint, deliveryIds: [], deliveries: [], leasedUntil, leaseToken, owner };
      groups.set(delivery.endpoint_id, group);
    }
    group.deliveryIds.push(delivery.id);
    group.deliveries.push(delivery);
  }
  return [...groups.values()];
}

/**
 * Moves a claim's lease (its endpoint's, then its deliveries') on to LEASE_MS from `now`. A
 * failure is logged, and sends stop before the old lease ends.
 */
export async function renewLease(db: DbOrTx, group: ClaimedGroup, now: Date): Promise<void> {
  const until = new Date(now.getTime() + LEASE_MS);
  try {
    await extendLeases(db, group, until);
    if (until > group.leasedUntil) group.leasedUntil = until;
  } catch (error) {
    logger.warn({ err: error, endpointId: group.endpointId }, 'webhook lease not renewed');
  }
}

/**
 * Gives an endpoint's send lease back, if `owner` still holds the lease its last claim took (a
 * claim made since, which extended it, keeps it): another worker may send to it at once.
 */
export async function releaseEndpoint(
  { db }: VerbContext,
  { endpointId, owner, lastLease }: { endpointId: string; owner: string; lastLease?: Date },
): Promise<void> {
  await releaseEndpointLease(db, endpointId, owner, lastLease).catch((error: unknown) =>
    logger.warn({ err: error, endpointId }, 'webhook endpoint lease not given back; it runs out by itself'),
  );
}

