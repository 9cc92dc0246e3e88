import type { Principal } from '../../auth/principal';
import { getDb } from '../../db/client';
import { processState } from '../../process/state';
import { logger } from '../../observability/logger';

declare module '../../process/state' {
  interface ProcessState {
    /** The request log's batching writer. */
    requestLogWriter?: RequestLogWriter;
  }
}
import { loggedJson, loggedText } from '../../requestlog/redact-body';
import { clientAddress } from '../client-address';
import { RequestLogWriter, type RequestLogEntry } from '../../requestlog/request-log-writer';
import type { RouteContract } from '../contract';

export type Annotations = Partial<Pick<RequestLogEntry, 'workspaceId' | 'projectId' | 'environmentId' | 'businessId'>>;

function requestLog(): RequestLogWriter {
  return (processState.requestLogWriter ??= new RequestLogWriter(getDb));
}

/** Requests whose row says what was sent rather than what the web Request could carry (the edge's refusals). */
const asSent = new WeakMap<Request, { method: string; path: string }>();

/** The method and path the row records for this request: as the client sent them, whatever they are. */
export function logAsSent(request: Request, sent: { method: string; path: string }): void {
  asSent.set(request, { method: sent.method.slice(0, 32), path: sent.path.slice(0, 2000) });
}

/** One request as it ended: what the request log row is made of. */
export type Exchange = {
  requestId: string;
  request: Request;
  response: Response;
  errorCode: string | null;
  principal: Principal;
  /** A revoked key of ours that was presented: the row is filed under its workspace. */
  refusedKeyId: string | null;
  annotations: Annotations;
  /** The body as sent, and the answer as given (before redaction). */
  requestText: string | null;
  answered: unknown;
  /** What a Test request's `Test-Fault` header asked for. */
  testFault: string | null;
  startedAt: number;
  now: Date;
};

/**
 * Queues the request's row (written in batches, off the request). Bodies are kept, redacted,
 * for failures and for writes (unless the contract says the trace holds them).
 */
export function logRequest(contract: RouteContract, exchange: Exchange): void {
  const { request, response, principal, refusedKeyId, annotations } = exchange;
  const keyCaller = contract.surface === 'account' ? 'account_key' : 'api_key';
  const write = !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
  const keepBodies = response.status >= 400 || (write && contract.logSuccessBodies !== false);
  const sent = asSent.get(request);
  // What is kept of the bodies must never cost the request its answer or its row.
  let bodies: { requestBody: string | null; responseBody: string | null };
  try {
    bodies = {
      requestBody: keepBodies && write ? loggedText(exchange.requestText, { personalData: contract.personalData === true }) : null,
      responseBody: keepBodies ? loggedJson(exchange.answered) : null,
    };
  } catch (error) {
    logger.error({ err: error, requestId: exchange.requestId }, 'request log: bodies not kept');
    bodies = { requestBody: '[not kept: it could not be read]', responseBody: null };
  }
  requestLog().record({
    requestId: exchange.requestId,
    method: sent?.method ?? request.method,
    path: sent?.path ?? new URL(request.url).pathname,
    status: response.status,
    errorCode: exchange.errorCode,
    principal: refusedKeyId ? 'api_key' : principal.kind,
    caller: refusedKeyId || principal.kind === 'api_key' ? keyCaller : principal.kind === 'session' ? 'member' : 'anonymous',
    portal: principal.kind === 'session' && principal.viaCookie === true,
    ip: clientAddress(request),
    userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
    ...bodies,
    apiKeyId: principal.kind === 'api_key' ? principal.keyId : refusedKeyId,
    userId: principal.kind === 'session' ? principal.userId : null,
    workspaceId: annotations.workspaceId ?? null,
    projectId: annotations.projectId ?? null,
    environmentId: annotations.environmentId ?? null,
    businessId: annotations.businessId ?? null,
    latencyMs: Math.round(performance.now() - exchange.startedAt),
    testFault: exchange.testFault,
    createdAt: exchange.now,
  });
}
