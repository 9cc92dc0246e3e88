import type { ApiKeyPrincipal } from '../auth/principal';
import { refuseLiveKey } from '../auth/scopes';
import { publishBookVersion } from '../books/publish-book-version';
import { findBookTenancy, publishedVersionIdOf } from '../books/store';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { readEventsOfSubjects } from '../events/store';
import { createAnnouncedApiKey } from '../keys/create-api-key';
import { revokeApiKey } from '../keys/revoke-api-key';
import { rotateApiKey } from '../keys/rotate-api-key';
import { deliveryEnvelope, type DeliveryEnvelope } from '../webhooks/envelope';
import { sendTestEvent } from '../webhooks/send-test-event';
import { findEndpoint } from '../webhooks/store';

/**
 * The event types a Test key may have the service emit on purpose (POST /v1/event-triggers),
 * besides those it causes with ordinary calls (a quote: `quote_intent.*`, `account_quote.created`).
 * The rest happen in Live or need a person's decision (docs/events.md).
 */
export const TRIGGERED_EVENT_TYPES = ['api_key.created', 'api_key.rotated', 'api_key.revoked', 'book_version.published', 'webhook.test'] as const;
export type TriggeredEventType = (typeof TRIGGERED_EVENT_TYPES)[number];

export type TriggerInput = { type: TriggeredEventType; bookId?: string; endpointId?: string };

/**
 * Does something real in the key's Test environment that emits an event of `type`, and returns
 * every event it emitted, as deliveries send them:
 * - keys: a key named after the trigger is made (its secret never shown), rotated without grace
 *   for `api_key.rotated`, and revoked, so nothing usable is left behind;
 * - `book_version.published`: the book's Test version is published to Test again (prices unchanged);
 * - `webhook.test`: a test event to one of the environment's endpoints.
 * Events name the key that triggered them (`triggeredBy`), never a person.
 */
export async function triggerEvent(ctx: VerbContext<ApiKeyPrincipal>, input: TriggerInput): Promise<DeliveryEnvelope[]> {
  const { principal, now, db } = ctx;
  refuseLiveKey(principal, 'Events are triggered with Test keys only: Live is never changed on purpose.');
  // All or nothing: a key made and not revoked would be left behind.
  const subjects = await withTransaction(ctx, (tx) => emit(tx, input));
  const events = await readEventsOfSubjects(db, principal.environmentId, subjects, now);
  return events.map((event) => deliveryEnvelope(event));
}

/** Runs the verbs; returns the ids the emitted events are about. */
async function emit(ctx: VerbContext<ApiKeyPrincipal>, input: TriggerInput): Promise<string[]> {
  const { principal } = ctx;
  switch (input.type) {
    case 'api_key.created':
    case 'api_key.revoked': {
      const { apiKey } = await createAnnouncedApiKey(ctx, { projectId: principal.projectId, environment: 'test', name: `Triggered: ${input.type}`, scopes: [] });
      await revokeApiKey(ctx, { keyId: apiKey.id });
      return [apiKey.id];
    }
    case 'api_key.rotated': {
      const { apiKey } = await createAnnouncedApiKey(ctx, { projectId: principal.projectId, environment: 'test', name: `Triggered: ${input.type}`, scopes: [] });
      const { successor } = await rotateApiKey(ctx, { keyId: apiKey.id, graceMinutes: 0 });
      await revokeApiKey(ctx, { keyId: successor.id });
      return [apiKey.id, successor.id];
    }
    case 'book_version.published': {
      if (!input.bookId) throw new ServiceError('invalid_request', 'book_version.published needs the book to publish again: bookId.', { param: 'bookId' });
      const book = await findBookTenancy(ctx.db, input.bookId);
      if (!book || book.projectId !== principal.projectId) throw new ServiceError('not_found', `Book ${input.bookId} is not a book of this key's project.`);
      const versionId = await publishedVersionIdOf(ctx.db, book.id, principal.environmentId);
      if (!versionId) throw new ServiceError('conflict', `Book ${book.id} has no version published to Test: publish one in the portal first.`);
      await publishBookVersion(ctx, { bookId: book.id, versionId, environment: 'test' });
      return [versionId];
    }
    case 'webhook.test': {
      if (!input.endpointId) throw new ServiceError('invalid_request', 'webhook.test needs the endpoint to send to: endpointId.', { param: 'endpointId' });
      const endpoint = await findEndpoint(ctx.db, input.endpointId);
      if (!endpoint || endpoint.environmentId !== principal.environmentId) {
        throw new ServiceError('not_found', `Webhook endpoint ${input.endpointId} is not an endpoint of this key's environment.`);
      }
      await sendTestEvent(ctx, { endpoint });
      return [endpoint.id];
    }
  }
}
