import type { QuotePricingClient } from '../index.js';
import { UsageError } from './usage.js';
import { plural } from './words.js';

/** Caused by an ordinary call: quoting. */
export const QUOTE_TYPES = ['quote_intent.succeeded', 'quote_intent.requires_input', 'quote_intent.failed', 'account_quote.created'];
/** Made to happen by the service on request (POST /v1/event-triggers). */
export const SERVICE_TRIGGERED = ['api_key.created', 'api_key.rotated', 'api_key.revoked', 'book_version.published', 'webhook.test'] as const;
type ServiceTriggered = (typeof SERVICE_TRIGGERED)[number];

/**
 * Makes the service emit a real Test event. Quotes are made as an integration makes them: a
 * quote priced, left waiting for answers or failed (an offering the book does not have), or a
 * quote stored on the account surface, built from the account's own quote spec (its first
 * service, each selection's first option that needs no visit). Key, book and test events the
 * service makes itself (POST /v1/event-triggers); every event it emitted is listed.
 * Exits 0 when the event asked for was emitted, 1 when the service made another, 2 when it cannot be triggered.
 */
export async function trigger(client: QuotePricingClient, type: string, scope: { businessId?: string; bookId?: string; endpointId?: string }): Promise<number> {
  if (!(SERVICE_TRIGGERED as readonly string[]).includes(type) && !QUOTE_TYPES.includes(type)) {
    console.error(
      `${type} cannot be triggered with a Test key: it happens in Live, or needs a person's decision (members, branding, reviews, a customer's acceptance). ` +
        `Send its catalogue example to your app instead: qps send --type ${type} --example --forward-to <url> --secret <whsec_…>. ` +
        `Triggerable: ${[...QUOTE_TYPES, ...SERVICE_TRIGGERED].join(', ')}.`,
    );
    return 2;
  }
  if (type === 'webhook.test' && !scope.endpointId) throw new UsageError(`${type} needs the endpoint to send to: --endpoint <id>.`, 'trigger');
  // What the key's account quotes (its book, its businesses), unless named: the quote spec says.
  const needsSpec = QUOTE_TYPES.includes(type) || (type === 'book_version.published' && !scope.bookId);
  const account = needsSpec ? await client.getCurrentAccount() : null;
  const spec = account ? await client.getQuoteSpec({ path: { id: account.id } }) : null;
  const bookId = scope.bookId ?? spec?.book.id;
  if ((SERVICE_TRIGGERED as readonly string[]).includes(type)) {
    const { events } = await client.triggerEvent({ body: { type: type as ServiceTriggered, bookId, endpointId: scope.endpointId } });
    console.log(`Triggered ${type}: ${plural(events.length, 'event')}.`);
    for (const event of events) console.log(`  ${event.id}  ${event.type}`);
    return 0;
  }
  const service = spec!.services[0];
  if (!service) throw new Error('The account’s book has no service to quote.');
  const selections = Object.fromEntries(service.selections.map((s) => [s.selection, (s.options.find((o) => !o.requires_inspection) ?? s.options[0]).value]));
  if (type === 'account_quote.created') {
    const produced = await client.createAccountQuote({ path: { id: account!.id }, body: { services: [{ service: service.service, selections }], context: {} } });
    console.log(`Triggered ${type}: account quote ${produced.quote_id} (${produced.state}).`);
    return 0;
  }
  const business = scope.businessId ? { id: scope.businessId, name: null } : spec!.businesses[0];
  if (!business) {
    throw new UsageError(`${type} needs a business to quote for, and no business is connected to ${account!.name}: connect one in the portal, or name one with --business (QPS_BUSINESS_ID).`, 'trigger');
  }
  if (!scope.businessId && spec!.businesses.length > 1) {
    console.log(`Quoting for ${business.name} (the first of ${plural(spec!.businesses.length, 'connected business', 'connected businesses')}; --business chooses another).`);
  }
  const quote = await client.createQuote({
    body: {
      businessId: business.id,
      bookId: bookId!,
      offeringId: type === 'quote_intent.failed' ? 'qps_trigger_no_such_offering' : service.service,
      factors: type === 'quote_intent.requires_input' ? {} : selections,
    },
  });
  const made = `quote_intent.${quote.quoteIntent.status}`;
  console.log(`Triggered ${made}: quote ${quote.quoteIntent.id}.`);
  if (made !== type) console.error(`(asked for ${type}: the book answered ${quote.quoteIntent.status} for these answers)`);
  return made === type ? 0 : 1;
}
