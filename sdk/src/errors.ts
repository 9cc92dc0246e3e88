import type { OPERATIONS, OperationId } from './generated/operations.js';

/** The error codes an operation can answer, as its OpenAPI document lists them. */
export type ErrorCodeOf<K extends OperationId> = (typeof OPERATIONS)[K]['errors'][number];
/** Every error code of the API; `unknown_error` when an answer carried none. */
export type ErrorCode = ErrorCodeOf<OperationId> | 'unknown_error';

/** The error body of the API (spec 2.1) and of the account surface (spec 4.3), as the SDK reads them. */
type ErrorBody = {
  error?: { code?: string; message?: string; requestId?: string; request_id?: string; param?: string | null; details?: unknown };
};

/**
 * An answer of the API that is not a success: its status, `code` (the spec's error codes),
 * message and request id, whichever envelope it came in. `retryAfterSeconds` is set when the
 * service said when to come back (429, 503). `isQuotePricingError(err, operationId)` narrows
 * `code` to the codes of that operation.
 */
export class QuotePricingError<Code extends string = ErrorCode> extends Error {
  readonly status: number;
  readonly code: Code;
  /** The operation that answered it. */
  readonly operationId: OperationId | null;
  readonly requestId: string | null;
  /** The field at fault, when the service named one. */
  readonly param: string | null;
  readonly details: unknown;
  readonly surface: 'standard' | 'account';
  readonly retryAfterSeconds: number | null;
  readonly headers: Headers;

  constructor(status: number, body: unknown, headers: Headers, surface: 'standard' | 'account', operationId: OperationId | null = null) {
    const error = (body as ErrorBody | null)?.error ?? {};
    super(error.message ?? `The service answered ${status}.`);
    this.name = 'QuotePricingError';
    this.status = status;
    this.code = (error.code ?? 'unknown_error') as Code;
    this.operationId = operationId;
    this.requestId = error.requestId ?? error.request_id ?? headers.get('x-request-id');
    this.param = error.param ?? null;
    this.details = error.details;
    this.surface = surface;
    this.retryAfterSeconds = retryAfterSeconds(headers);
    this.headers = headers;
  }
}

/** An error of the API's; given an operation id, one that operation answered, its `code` a union of that operation's codes. */
export function isQuotePricingError<K extends OperationId>(error: unknown, operationId: K): error is QuotePricingError<ErrorCodeOf<K>>;
export function isQuotePricingError(error: unknown): error is QuotePricingError;
export function isQuotePricingError(error: unknown, operationId?: OperationId): boolean {
  return error instanceof QuotePricingError && (operationId === undefined || error.operationId === operationId);
}

/** The request never got an answer: a refused connection, a reset, a timeout. */
export class QuotePricingConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QuotePricingConnectionError';
  }
}

/** `retry-after` in seconds (or an HTTP date), else `ratelimit-reset`; null when neither is there. */
export function retryAfterSeconds(headers: Headers): number | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, (date - Date.now()) / 1000);
  }
  const reset = Number(headers.get('ratelimit-reset') ?? Number.NaN);
  return Number.isFinite(reset) ? Math.max(0, reset) : null;
}
