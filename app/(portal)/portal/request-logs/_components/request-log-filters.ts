// The request-log search lives in the page's query string (shareable, back button works) with
// the same names GET /v1/request-logs takes, so the page passes its filters straight through.

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export const PAGE_SIZES = ['10', '25', '50', '100'] as const;
export const DEFAULT_PAGE_SIZE = '50';

const SEARCH_FIELDS = ['requestId', 'method', 'caller', 'status', 'statusClass', 'path', 'apiKeyId', 'environment', 'from', 'to', 'limit'] as const;

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const CALLERS = { api_key: 'API key', account_key: 'Account API key', member: 'Member', anonymous: 'Anonymous' } as const;

/**
 * The portal's own requests (a member clicking around) are left out unless the page says
 * `portal=include` (everything) or `portal=only`: a search is about the API's callers.
 */
export const PORTAL_TRAFFIC = { exclude: 'Leave out the portal’s own requests', include: 'Include the portal’s own requests', only: 'Only the portal’s own requests' } as const;
const TIME_FIELDS = new Set<string>(['from', 'to']);

type ReadableParams = Pick<URLSearchParams, 'get'>;

/** The API query for the page's URL: the known filters that have a value, plus the cursor. */
export function requestLogApiQuery(pageParams: ReadableParams): string {
  const query = new URLSearchParams();
  for (const name of [...SEARCH_FIELDS, 'cursor']) {
    const value = pageParams.get(name)?.trim();
    if (value) query.set(name, value);
  }
  // A looked-up request id is shown whoever made it.
  const portal = pageParams.get('portal') ?? (query.has('requestId') ? 'include' : 'exclude');
  if (portal === 'exclude' || portal === 'only') query.set('portal', portal);
  return query.toString();
}

/** Whether the page narrows the log at all (a filter, a time range or the portal's requests); `limit` and `cursor` do not. */
export function narrowsLog(pageParams: ReadableParams): boolean {
  return SEARCH_FIELDS.some((name) => name !== 'limit' && Boolean(pageParams.get(name)?.trim())) || Boolean(pageParams.get('portal'));
}

/**
 * The page's query string for a submitted search form. Times arrive as the browser's local
 * `datetime-local` values and are kept as ISO instants, so a shared link means the same moment
 * in every time zone. A new search starts again at the newest requests (no cursor).
 */
export function searchParamsFromForm(form: FormData): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of SEARCH_FIELDS) {
    const value = String(form.get(name) ?? '').trim();
    if (!value) continue;
    params.set(name, TIME_FIELDS.has(name) ? isoFromDateTimeLocal(value) : value);
  }
  // An exact status says more than its class; sending both would only confuse the link.
  if (params.has('status')) params.delete('statusClass');
  const portal = String(form.get('portal') ?? 'exclude');
  if (portal !== 'exclude') params.set('portal', portal);
  if (params.get('limit') === DEFAULT_PAGE_SIZE) params.delete('limit');
  return params;
}

/** The same search on another page: `cursor` from the previous answer, or null for the newest. */
export function withCursor(pageParams: ReadableParams & { toString(): string }, cursor: string | null): URLSearchParams {
  const params = new URLSearchParams(pageParams.toString());
  if (cursor) params.set('cursor', cursor);
  else params.delete('cursor');
  return params;
}

export function isoFromDateTimeLocal(local: string): string {
  return new Date(local).toISOString();
}

/** An ISO instant as a `datetime-local` value in the browser's zone ('' when unreadable). */
export function dateTimeLocalFromIso(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
