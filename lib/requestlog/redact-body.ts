/**
 * What the request log keeps of a body: JSON with every secret taken out, capped in size.
 * Secrets are recognised by name (a field called `secret`, `token`, `password`, `authorization`,
 * … — ids such as `apiKeyId` are not secrets) and by shape (API keys `sk_test_…`/`sk_live_…`,
 * webhook secrets `whsec_…`), wherever they stand, so none reaches the log. Personal data is
 * taken out the same way, by name (`contact`, `email`, `phone`, `note`: a customer's contact
 * details when they accept a quote), whole objects included.
 */

import { MAX_JSON_DEPTH } from '../json/json-limits';

/** Largest body kept, in UTF-8 bytes; beyond it the text is cut and says so. */
export const MAX_LOGGED_BODY_BYTES = 8_192;

export const REDACTED = '[redacted]';

const SECRET_NAME = /secret|token|password|passphrase|authorization|cookie|credential|private|^key$|api[_-]?key$|signing[_-]?key/i;
const PERSONAL_NAME = /^(?:contact|email|phone|note)$/i;
const SECRET_VALUE = /\b(?:sk_(?:test|live)_[A-Za-z0-9_-]+|whsec_[A-Za-z0-9+/=_-]+)/g;

/**
 * How deep a kept body is walked: a body nested deeper is refused (json-limits.ts) and its failure
 * logged, but walking a stranger's 6,000 levels would exhaust the stack, so beyond this it says so.
 */
const MAX_KEPT_DEPTH = MAX_JSON_DEPTH + 1;
const TOO_DEEP = `[nested deeper than ${MAX_KEPT_DEPTH} levels: not kept]`;

function redactValue(value: unknown, name: string | null, depth = 0): unknown {
  if (depth > MAX_KEPT_DEPTH) return TOO_DEEP;
  if (name !== null && PERSONAL_NAME.test(name) && value !== null) return REDACTED;
  // By name: a secret is a value (an object under such a name, e.g. the `apiKey` view, is walked).
  if (name !== null && SECRET_NAME.test(name) && !/ids?$/i.test(name) && (typeof value !== 'object' || value === null)) {
    return value === null ? null : REDACTED;
  }
  if (typeof value === 'string') return value.replace(SECRET_VALUE, REDACTED);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, null, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, inner] of Object.entries(value)) out[key] = redactValue(inner, key, depth + 1);
    return out;
  }
  return value;
}

/** A JSON value as the log keeps it: redacted, serialised, capped. */
export function loggedJson(value: unknown): string | null {
  if (value === undefined) return null;
  return capped(JSON.stringify(redactValue(value, null)));
}

/** What a body that carries personal data keeps of its strings: ids and a day, nothing a person typed. */
const KEPT_OF_PERSONAL = /^(?:businessId|quoteIntentId|preferredDate)$/;

/** A personal-data body's shape: every string but KEPT_OF_PERSONAL's redacted, whatever its field's name. */
function withoutPersonalValues(value: unknown, name: string | null, depth = 0): unknown {
  if (depth > MAX_KEPT_DEPTH) return TOO_DEEP;
  if (typeof value === 'string') return name !== null && KEPT_OF_PERSONAL.test(name) ? value : REDACTED;
  if (Array.isArray(value)) return value.map((item) => withoutPersonalValues(item, null, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, inner] of Object.entries(value)) out[key] = withoutPersonalValues(inner, key, depth + 1);
    return out;
  }
  return value;
}

/**
 * A body as it was sent (possibly not JSON at all): parsed and redacted when it is JSON, else its
 * text redacted. With `personalData` (an acceptance: a person's contact details, which they may
 * type into any field), no value a person typed is kept: a JSON body keeps its shape, ids and
 * the preferred day; any other body only its size.
 */
export function loggedText(text: string | null, { personalData = false } = {}): string | null {
  if (text === null || text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (personalData) return `[not JSON: ${Buffer.byteLength(text, 'utf8').toLocaleString('en-US')} bytes not kept, as they may hold personal data]`;
    return capped(text.replace(SECRET_VALUE, REDACTED));
  }
  return loggedJson(personalData ? withoutPersonalValues(parsed, null) : parsed);
}

function capped(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_LOGGED_BODY_BYTES) return text;
  // Cut on a character boundary, then say how much is missing.
  const kept = Buffer.from(text, 'utf8').subarray(0, MAX_LOGGED_BODY_BYTES - 64).toString('utf8').replace(/\uFFFD+$/, '');
  return `${kept}… [${(bytes - Buffer.byteLength(kept, 'utf8')).toLocaleString('en-US')} more bytes not kept]`;
}
