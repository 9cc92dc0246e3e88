import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ApiKeyPrincipal, Principal, SessionPrincipal } from '../auth/principal';
import { findSession, sessionTokenOf } from '../auth/sessions';
import { getDb, getPool, type Db } from '../db/client';
import { ServiceError, type ErrorCode } from '../errors/service-error';
import { authenticateApiKey, RefusedApiKeyError } from '../keys/authenticate-api-key';
import { logger } from '../observability/logger';
import { withTenancyRecorder } from '../observability/request-context';
import { consumeRateLimit, type RateLimitName } from '../ratelimit/registry';
import { RequestLogWriter, type RequestLogEntry } from '../requestlog/request-log-writer';
import type { RouteContract } from './contract';
import { errorResponse, successResponse } from './envelope';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-body';
import { parseOrThrow } from '../errors/parse-or-throw';

type Annotations = Partial<Pick<RequestLogEntry, 'workspaceId' | 'projectId' | 'environmentId' | 'businessId'>>;

export type HandlerContext<C extends RouteContract> = {
  db: Db;
  principal: C['auth'] extends 'api_key' ? ApiKeyPrincipal : C['auth'] extends 'session' ? SessionPrincipal : Principal;
  requestId: string;
  /** The request's clock reading: one instant for everything the request does. */
  now: Date;
  /** performance.now() when the request arrived, for latency figures. */
  startedAt: number;
  params: z.output<NonNullable<C['params']>>;
  query: z.output<NonNullable<C['query']>>;
  headers: z.output<NonNullable<C['headers']>>;
  body: z.output<NonNullable<C['body']>>;
  request: Request;
  /** Adds tenancy ids to the request log once the handler knows them. */
  annotate(annotations: Annotations): void;
};

export type HandlerResult<C extends RouteContract> =
  | { data: z.input<C['success']['schema']>; status?: number; headers?: Record<string, string> }
  /** A body outside the envelope (the OpenAPI document); still logged and given a request id. */
  | { response: Response };

export type RouteOptions<C extends RouteContract> = {
  /** A limit from the registry and the key it counts by, taken after validation. */
  rateLimit?: { name: RateLimitName; key: (input: Pick<HandlerContext<C>, 'principal' | 'params' | 'body'>) => string };
};

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

const globalWriter = globalThis as typeof globalThis & { __requestLogWriter?: RequestLogWriter };
function requestLog(): RequestLogWriter {
  return (globalWriter.__requestLogWriter ??= new RequestLogWriter(getDb));
}

/**
 * The one wrapper every /v1 route handler uses: request id, authentication, zod parsing,
 * the envelope, error mapping and the request log. Handlers only call domain code.
 */
export function defineRoute<C extends RouteContract>(
  contract: C,
  handler: (ctx: HandlerContext<C>) => Promise<HandlerResult<C>>,
  options: RouteOptions<C> = {},
): (request: Request, context: NextRouteContext) => Promise<Response> {
  const surface = contract.surface ?? 'standard';
  const validationCode = contract.validationCode ?? 'invalid_request';

  return async (request, context) => {
    const startedAt = performance.now();
    const requestId = randomUUID();
    const now = new Date();
    const annotations: Annotations = {};
    let principal: Principal = { kind: 'anonymous' };
    let refusedKeyId: string | null = null;
    let response: Response;
    let errorCode: string | null = null;
    let quotaHeaders: Record<string, string> = {};
    const db = getDb();
    /** Everything after authentication: quota, parsing, the handler and the response body. */
    const serve = async (principal: Principal): Promise<Response> => {
      if (principal.kind === 'api_key') {
        Object.assign(annotations, {
          workspaceId: principal.workspaceId,
          projectId: principal.projectId,
          environmentId: principal.environmentId,
        });
      }
      if (surface === 'account' && principal.kind === 'api_key') {
        // Spec 8: one quota per account and environment, shared by sibling keys.
        const quota = await consumeRateLimit(getPool(), 'accountRequests', `${principal.projectId}:${principal.environment}`);
        quotaHeaders = { 'ratelimit-limit': String(quota.limit), 'ratelimit-remaining': String(quota.remaining), 'ratelimit-reset': String(quota.resetSeconds) };
        if (contract.scope && !principal.scopes.includes(contract.scope)) {
          throw new ServiceError('insufficient_scope', `This API key lacks the scope "${contract.scope}".`);
        }
      }
      const params = contract.params
        ? parseOrThrowNotFound(contract.params, await context.params, contract.paramsErrorCode ?? 'not_found')
        : undefined;
      const headers = contract.headers
        ? parseOrThrow(contract.headers, Object.fromEntries(request.headers), validationCode, 'headers')
        : undefined;
      const query = contract.query
        ? parseOrThrow(contract.query, Object.fromEntries(new URL(request.url).searchParams), validationCode, 'query')
        : undefined;
      const body = contract.body
        ? parseOrThrow(
            contract.body,
            await readJsonBody(request, contract.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, validationCode),
            validationCode,
            'body',
          )
        : undefined;
      const ctx = {
        db,
        principal,
        requestId,
        now,
        startedAt,
        params,
        query,
        headers,
        body,
        request,
        annotate: (more: Annotations) => Object.assign(annotations, more),
      } as unknown as HandlerContext<C>;
      if (options.rateLimit) {
        await consumeRateLimit(getPool(), options.rateLimit.name, options.rateLimit.key(ctx));
      }
      const result = await withTenancyRecorder(
        (tenancy) => {
          for (const [field, value] of Object.entries(tenancy)) {
            if (value && !annotations[field as keyof Annotations]) annotations[field as keyof Annotations] = value;
          }
        },
        () => handler(ctx),
      );
      // Responses pass through their schema: only listed fields leave, whatever a query selected.
      return 'response' in result
        ? result.response
        : successResponse(
            result.status ?? contract.success.status,
            contract.success.schema.parse(result.data),
            requestId,
            result.headers,
          );
    };
    try {
      principal = await authenticate(contract, request, db, now, { remembered: contract.apiKeyRecheckedByWrite === true });
      const outcome = await serve(principal).then(
        (served) => ({ served }),
        (error: unknown) => ({ error }),
      );
      // A key taken from memory answers nothing its write did not confirm: it is checked afresh
      // first, so a key revoked a moment ago gets its 401, whatever else went right or wrong.
      if (principal.kind === 'api_key' && principal.keyCheck && !principal.keyCheck.confirmed) {
        principal = await authenticate(contract, request, db, now);
      }
      if ('error' in outcome) throw outcome.error;
      response = outcome.served;
    } catch (error) {
      if (error instanceof RefusedApiKeyError) {
        const { keyId, ...tenancy } = error.key;
        refusedKeyId = keyId;
        Object.assign(annotations, tenancy);
      }
      const serviceError = toServiceError(error, requestId);
      errorCode = serviceError.code;
      response = errorResponse(serviceError, requestId, surface);
    }
    response.headers.set('x-request-id', requestId);
    for (const [name, value] of Object.entries(quotaHeaders)) if (!response.headers.has(name)) response.headers.set(name, value);
    requestLog().record({
      requestId,
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      errorCode,
      principal: refusedKeyId ? 'api_key' : principal.kind,
      apiKeyId: principal.kind === 'api_key' ? principal.keyId : refusedKeyId,
      userId: principal.kind === 'session' ? principal.userId : null,
      workspaceId: annotations.workspaceId ?? null,
      projectId: annotations.projectId ?? null,
      environmentId: annotations.environmentId ?? null,
      businessId: annotations.businessId ?? null,
      latencyMs: Math.round(performance.now() - startedAt),
      createdAt: now,
    });
    return response;
  };
}

async function authenticate(
  contract: RouteContract,
  request: Request,
  db: Db,
  now: Date,
  options: { remembered?: boolean } = {},
): Promise<Principal> {
  switch (contract.auth) {
    case 'anonymous':
      return { kind: 'anonymous' };
    case 'api_key':
      return authenticateApiKey(
        db,
        request.headers.get('authorization'),
        now,
        contract.surface === 'account' ? 'revoked_api_key' : 'invalid_api_key',
        options,
      );
    case 'session':
      return authenticateSession(request, db, now);
  }
}

/**
 * A member's session, from `Authorization: Bearer <session token>` (a caller's own server) or
 * the portal's cookie. Cookie-authenticated writes must come from our own origin (CSRF).
 */
async function authenticateSession(request: Request, db: Db, now: Date): Promise<SessionPrincipal> {
  const presented = sessionTokenOf(request);
  const session = presented ? await findSession(db, presented.token, now) : null;
  if (!presented || !session) throw new ServiceError('unauthorized', 'Sign in, or send a session token as "Authorization: Bearer <token>".');
  if (presented.via === 'cookie' && !['GET', 'HEAD'].includes(request.method) && !sameOrigin(request)) {
    throw new ServiceError('forbidden', 'Cross-site requests cannot use the session cookie.');
  }
  return session;
}

function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (origin) {
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  return request.headers.get('sec-fetch-site') === 'same-origin';
}

/** A malformed path id names nothing: 404, like an id that does not exist. */
function parseOrThrowNotFound<S extends z.ZodType>(schema: S, value: unknown, code: ErrorCode): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const param = String(result.error.issues[0]?.path[0] ?? '');
    throw new ServiceError(code, `No such ${param || 'resource'}.`, { param });
  }
  return result.data;
}

function toServiceError(error: unknown, requestId: string): ServiceError {
  if (error instanceof ServiceError) return error;
  logger.error({ err: error, requestId }, 'unhandled error');
  return new ServiceError(
    'internal_error',
    `Something went wrong on our side. Quote request id ${requestId} if you contact support.`,
  );
}
