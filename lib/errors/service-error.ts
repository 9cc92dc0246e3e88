/**
 * Every code the service answers with. The spec's codes, plus the few it leaves to us
 * (`not_found`, `method_not_allowed`, `forbidden`, `conflict`, `invalid_request`, `payload_too_large`,
 * `internal_error`, `service_unavailable`, and the 409s of quote review, acceptance and commitment), and two that only the server's edge answers (scripts/http-edge.mjs):
 * `request_timeout` and `headers_too_large`.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_api_key: 401,
  revoked_api_key: 401,
  unauthorized: 401,
  insufficient_scope: 403,
  not_business_owner: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  quote_scope_not_found: 404,
  quote_surface_unavailable: 404,
  idempotency_conflict: 409,
  conflict: 409,
  // The way from a price to a commitment (docs/quote-lifecycle.md).
  quote_expired: 409,
  quote_not_priced: 409,
  quote_already_accepted: 409,
  quote_declined: 409,
  already_reviewed: 409,
  receipt_mismatch: 409,
  request_timeout: 408,
  payload_too_large: 413,
  invalid_quote_request: 422,
  // A webhook endpoint URL that delivery would refuse (lib/webhooks/target-policy.ts).
  webhook_target_refused: 422,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A failure domain code can name. The route wrapper turns it into the spec's envelope. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly details?: { fields?: Record<string, string[]> } & Record<string, unknown>;
  /** Account surface: the parameter at fault, "" when none. */
  readonly param: string;
  /** Extra response headers (e.g. retry-after). */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ServiceError['details']; param?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.details = options.details;
    this.param = options.param ?? '';
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
