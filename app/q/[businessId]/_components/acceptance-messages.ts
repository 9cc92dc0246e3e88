/**
 * What the acceptance form says when the service refuses it, in sentences a customer reads. The
 * service's messages are written for developers ("pick a day from today on, within two years"):
 * each field gets the page's own sentence, whatever the wording the API gives it.
 */

/** The form's fields, as the service names them in `details.fields` (without `contact.`). */
export const FIELD_SENTENCES: Record<string, string> = {
  name: 'Tell us your name.',
  email: 'Enter an email address such as name@example.com, or give a phone number instead.',
  phone: 'Enter a phone number with digits, spaces and + ( ) - only, such as +1 555 0100.',
  preferredDate: 'Pick a day from today on, within the next two years.',
  note: 'Keep your note to 1,000 characters or fewer.',
  consent: 'Tick the box to agree to be contacted.',
};

/** The page's sentence for a field the service refused; any other field's message made a sentence. */
export function fieldSentence(field: string, serverMessage: string | undefined): string {
  return FIELD_SENTENCES[field] ?? asSentence(serverMessage ?? 'Please check this.');
}

type Refusal = { code?: string; message?: string; requestId?: string } | null;

/** A refusal that names no field, in words: what happened and what the customer can do. */
export function refusalSentence(error: Refusal, status: number, requestId: string | null): string {
  switch (error?.code) {
    case 'not_found':
      return 'We couldn’t find this quote any more. Open the link to your quote again, or get a new price.';
    case 'quote_not_priced':
      return 'This quote has no price yet, so it can’t be accepted. Get a price first.';
    case 'quote_surface_unavailable':
      return 'This business isn’t taking quotes here right now, so the quote can’t be accepted online. Please contact them directly.';
    case 'invalid_request':
      return 'Some of your details couldn’t be read. Please check them and try again.';
    case 'payload_too_large':
      return 'That is more than the form can take. Please shorten your note and try again.';
    case 'service_unavailable':
      return 'Accepting quotes isn’t working for a moment. Please try again in a minute.';
  }
  const reference = error?.requestId ?? requestId;
  if (status >= 500 || !error?.message) {
    return `Something went wrong on our side. Please try again${reference ? ` (reference ${reference})` : ''}.`;
  }
  return asSentence(error.message);
}

/** "pick a day" → "Pick a day.": a capital first letter and a full stop. */
export function asSentence(message: string): string {
  const text = message.trim();
  if (!text) return text;
  const capital = text[0].toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}
