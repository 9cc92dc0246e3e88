import { isTransientDatabaseError } from '../../db/transient-error';
import { ServiceError } from '../../errors/service-error';
import type { Logger } from '../../observability/logger';
import type { RouteContract } from '../contract';
import { acceptsProgressStream, errorBody, errorResponse, progressStreamResponse, successResponse } from '../envelope';

/** What a handler may answer (see HandlerResult in define-route.ts), untyped. */
export type RawResult =
  | { data: unknown; status?: number; headers?: Record<string, string> }
  | { response: Response }
  | { progress: (report: (progress: unknown) => Promise<void>) => Promise<unknown> };

/**
 * Turns a handler's result or an error into the response, in the contract's envelope, and keeps
 * what was answered for the request log. Data passes through the success schema: only listed
 * fields leave, whatever a query selected.
 */
export class Responder {
  /** The body as answered (the envelope), for the request log. */
  answered: unknown = undefined;
  errorCode: string | null = null;

  constructor(
    private readonly contract: RouteContract,
    private readonly request: Request,
    private readonly requestId: string,
    private readonly log: Logger,
  ) {}

  /** The success body: the envelope, or the data itself where the contract says so. */
  answer(status: number, data: unknown, headers?: Record<string, string>): Response {
    const enveloped = this.contract.success.enveloped !== false;
    this.answered = enveloped ? { data, requestId: this.requestId } : data;
    return enveloped ? successResponse(status, data, this.requestId, headers) : Response.json(data, { status, headers });
  }

  /** A handler's data, checked against the success schema, with its status. */
  validated(result: { data: unknown; status?: number; headers?: Record<string, string> }) {
    return { status: result.status ?? this.contract.success.status, data: this.contract.success.schema.parse(result.data), headers: result.headers };
  }

  async respond(result: RawResult): Promise<Response> {
    if ('response' in result) return result.response;
    if ('data' in result) {
      const { status, data, headers } = this.validated(result);
      return this.answer(status, data, headers);
    }
    const schema = this.contract.success.schema;
    if (!acceptsProgressStream(this.request)) return this.answer(this.contract.success.status, schema.parse(await result.progress(async () => {})));
    return progressStreamResponse(async (report) => schema.parse(await result.progress(report)), {
      requestId: this.requestId,
      plain: (data) => this.answer(this.contract.success.status, data),
      errorLine: (error) => errorBody(this.toServiceError(error), this.requestId, this.surface),
    });
  }

  fail(error: unknown): Response {
    const serviceError = this.toServiceError(error);
    this.errorCode = serviceError.code;
    this.answered = errorBody(serviceError, this.requestId, this.surface);
    return errorResponse(serviceError, this.requestId, this.surface);
  }

  private get surface() {
    return this.contract.surface ?? 'standard';
  }

  /**
   * Our errors as they are; a database failure that passes by itself (a deadlock, a lost
   * connection, a moment of overload) as 503 with `retry-after`, since the same request may
   * succeed a second later (a write's idempotency key was given back: its retry runs again);
   * anything else is logged and answered as a 500 without its details.
   */
  private toServiceError(error: unknown): ServiceError {
    if (error instanceof ServiceError) return error;
    if (isTransientDatabaseError(error)) {
      this.log.warn({ err: error }, 'database briefly unavailable: answered 503');
      return brieflyUnavailable();
    }
    this.log.error({ err: error }, 'unhandled error');
    return internalError(this.requestId);
  }
}

/** The 503 of a database failure that passes by itself (lib/db/transient-error.ts; Test-Fault `unavailable` imitates it). */
export function brieflyUnavailable(): ServiceError {
  return new ServiceError('service_unavailable', 'The service is briefly unavailable. Retry after 1 second.', { headers: { 'retry-after': '1' } });
}

/** The 500 every route answers for an error of ours, without its details (Test-Fault `server_error` imitates it). */
export function internalError(requestId: string): ServiceError {
  return new ServiceError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact support.`);
}
