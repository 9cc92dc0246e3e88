// Without zod: the portal's webhook form shows what each event means (test/unit/layering.test.ts);
// the catalogue (catalogue.ts) adds each event's schema and example.
import type { EventType } from '../events/event-types';

export type EventMeaning = {
  /** Which environment's endpoints receive it. */
  environment: 'the quote’s' | 'the publication’s' | 'the key’s' | 'Live' | 'the endpoint’s';
  /** What happened, in a business's words. */
  meaning: string;
};

/** What each event type means, and which environment's endpoints receive it. */
export const EVENT_MEANINGS: Record<EventType, EventMeaning> = {
  'quote_intent.succeeded': {
    environment: 'the quote’s',
    meaning: 'A quote was priced (any surface)',
  },
  'quote_intent.requires_input': {
    environment: 'the quote’s',
    meaning: 'A quote needs more answers',
  },
  'quote_intent.failed': {
    environment: 'the quote’s',
    meaning: 'A quote could not be priced',
  },
  'book_version.published': {
    environment: 'the publication’s',
    meaning: 'A price book version was published to Test or Live',
  },
  'experiment.started': {
    environment: 'the publication’s',
    meaning: 'An experiment started on a book: quotes in its environment (for its offerings) are priced with the arm their subject falls in, and the control is pinned to the version published at that moment',
  },
  'experiment.stopped': {
    environment: 'the publication’s',
    meaning: 'An experiment stopped: from now on every quote is priced with the publication again; quotes already made keep their arm',
  },
  'experiment.concluded': {
    environment: 'the publication’s',
    meaning: 'An experiment was concluded by promoting an arm: a variant’s version was published (its `book_version.published` comes with it), the control’s was not; quotes are priced with the publication, outside any experiment, from now on',
  },
  'experiment.paused': {
    environment: 'the publication’s',
    meaning: 'A guardrail paused a variant of a running experiment: its acceptance rate was shown to be lower than the control’s by more than the experiment’s margin, so its subjects are priced with the control from the arm’s pausedAt on (quotes made before keep the arm)',
  },
  'api_key.created': {
    environment: 'the key’s',
    meaning: 'An API key was created (never its secret)',
  },
  'api_key.rotated': {
    environment: 'the key’s',
    meaning: 'An API key was rotated',
  },
  'api_key.revoked': {
    environment: 'the key’s',
    meaning: 'An API key stopped working. `reason`: "revoked" (at once), "rotated_without_grace", or "rotation_grace_ended" (then there is no `revokedBy`: nobody did it just now)',
  },
  'business_member.invited': {
    environment: 'Live',
    meaning: 'An owner invited a person to the business',
  },
  'business_member.updated': {
    environment: 'Live',
    meaning: 'An owner changed a member’s role',
  },
  'business_member.removed': {
    environment: 'Live',
    meaning: 'An owner removed a member',
  },
  'business.branding_updated': {
    environment: 'Live',
    meaning: 'The hosted quote page’s branding changed',
  },
  'account_quote.created': {
    environment: 'the key’s',
    meaning: 'An integration stored a quote on the account surface (POST /v1/accounts/{id}/quotes)',
  },
  'account_quote.approved': {
    environment: 'the quote’s',
    meaning: 'The business approved a held account quote: it is `quoted` now and can be sent on and committed',
  },
  'account_quote.declined': {
    environment: 'the quote’s',
    meaning: 'The business declined a held account quote, with its reason: it cannot be committed',
  },
  'quote_intent.accepted': {
    environment: 'Live',
    meaning: 'A customer accepted a priced quote on the hosted page: a new lead, with how to reach them (personal data: erased on request)',
  },
  'commitment.confirmed': {
    environment: 'Live',
    meaning: 'A commitment was confirmed on a quoted quote',
  },
  'webhook.test': {
    environment: 'the endpoint’s',
    meaning: 'A test event you sent to one endpoint',
  },
};
