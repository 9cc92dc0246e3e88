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
import { acceptsProgressStream, errorBody, errorResponse, progressStreamResponse, successResponse } from './envelope';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-body';
import { jsonViolation } from './json-limits';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../idempotency/idempotent-requests';
import { idempotencyKeyHeaderSchema } from './contract';
import { loggedJson, loggedText } from '../requestlog/redact-body';
import { parseOrThrow } from '../errors/parse-or-throw';
import { forwardQueuedDeliveries } from '../jobs/forward-to-inngest';

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

/** What `authorize` sees: who is calling and which resource the path names; never the body. */
export type AuthorizeContext<C extends RouteContract> = Pick<HandlerContext<C>, 'db' | 'principal' | 'params' | 'now' | 'requestId'>;

export type HandlerResult<C extends RouteContract> =
  | { data: z.input<C['success']['schema']>; status?: number; headers?: Record<string, string> }
  /** A body outside the envelope (the OpenAPI document); still logged and given a request id. */
  | { response: Response }
  /**
   * A computation that reports progress (contracts with `progress`): streamed as NDJSON to a
   * client that accepts it, else answered as `data` once done.
   */
  | { progress: (report: (progress: z.input<NonNullable<C['progress']>['schema']>) => Promise<void>) => Promise<z.input<C['success']['schema']>> };

/**
 * A route: its handler, and the steps the wrapper runs before it.
 * - `authorize` runs after authentication and before the query and body are read, so that a
 *   caller without the right gets 403/404 whatever they send (authentication, authorization,
 *   then validation). What it returns reaches the handler as `access`.
 * - `rateLimit` names a limit from the registry and the key it counts by, taken after validation.
 */
export type RouteDefinition<C extends RouteContract, A> = {
  authorize?: (ctx: AuthorizeContext<C>) => Promise<A> | A;
  /**
   * Whose request a failure was, from what it sent, when nothing else said (an anonymous public
   * quote names its business): its row then shows in that workspace's request log.
   */
  attributeFailure?: (sent: { db: Db; body: unknown }) => Promise<Annotations | null>;
  rateLimit?: { name: RateLimitName; key: (input: Pick<HandlerContext<C>, 'principal' | 'params' | 'body'>) => string };
  handle: (ctx: HandlerContext<C> & { access: A }) => Promise<HandlerResult<C>>;
};

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

const globalWriter = globalThis as typeof globalThis & { __requestLogWriter?: RequestLogWriter };
function requestLog(): RequestLogWriter {
  return (globalWriter.__requestLogWriter ??= new RequestLogWriter(getDb));
}

/**
 * The one wrapper every /v1 route handler uses: request id, authentication, authorization,
 * zod parsing, rate limits, Idempotency-Key, the envelope, error mapping and the request log.
 * Handlers only call domain code. A bare function is a route with nothing but a handler.
 */
export function defineRoute<C extends RouteContract, A = undefined>(
  contract: C,
  route: RouteDefinition<C, A> | RouteDefinition<C, A>['handle'],
): (request: Request, context: NextRouteContext) => Promise<Response> {
  const { authorize, rateLimit, handle, attributeFailure } =
    typeof route === 'function' ? { handle: route, authorize: undefined, rateLimit: undefined, attributeFailure: undefined } : route;
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
    // What the request log may keep of the exchange (only for writes and failures, redacted).
    let requestText: string | null = null;
    let answered: unknown = undefined;
    const db = getDb();
    /** Everything after authentication, in the order RouteDefinition describes. */
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
      const base = { db, principal, requestId, now, params } as AuthorizeContext<C>;
      const access = authorize ? await authorize(base) : undefined;
      const headers = contract.headers ? parseOrThrow(contract.headers, declaredHeaders(contract.headers, request), validationCode, 'headers') : undefined;
      const query = contract.query ? parseQuery(contract.query, request, validationCode) : undefined;
      const body = contract.body
        ? parseOrThrow(
            contract.body,
            await readJsonBody(request, contract.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, validationCode, (text) => (requestText = text)),
            validationCode,
            'body',
          )
        : undefined;
      const ctx = {
        ...base,
        startedAt,
        query,
        headers,
        body,
        request,
        access,
        annotate: (more: Annotations) => Object.assign(annotations, more),
      } as unknown as HandlerContext<C> & { access: A };
      const idempotency = contract.idempotent ? idempotencyOf(request, principal, validationCode) : null;
      if (rateLimit) {
        await consumeRateLimit(getPool(), rateLimit.name, rateLimit.key(ctx));
      }
      if (!idempotency) return toResponse(await handle(ctx));
      const claim = await claimIdempotencyKey(db, { ...idempotency, method: request.method, path: new URL(request.url).pathname, body }, now);
      if (claim.kind === 'replay') {
        return answer(claim.status, claim.data, { 'idempotent-replayed': 'true' });
      }
      try {
        const result = await handle(ctx);
        if (!('data' in result)) throw new Error('an idempotent route answers with data, not a raw response or a stream');
        const status = result.status ?? contract.success.status;
        const data = contract.success.schema.parse(result.data);
        await completeIdempotencyKey(db, claim.id, status, withheld(data, contract.idempotent?.shownOnce));
        return answer(status, data, result.headers);
      } catch (error) {
        await releaseIdempotencyKey(db, claim.id).catch((release: unknown) => logger.error({ err: release, requestId }, 'idempotency key not released'));
        throw error;
      }
    };
    /** The success body: the envelope, or the data itself where the contract says so. */
    const answer = (status: number, data: unknown, headers?: Record<string, string>): Response => {
      answered = contract.success.enveloped === false ? data : { data, requestId };
      return contract.success.enveloped === false ? Response.json(data, { status, headers }) : successResponse(status, data, requestId, headers);
    };
    // Responses pass through their schema: only listed fields leave, whatever a query selected.
    const toResponse = async (result: HandlerResult<C>): Promise<Response> => {
      if ('response' in result) return result.response;
      if ('data' in result) return answer(result.status ?? contract.success.status, contract.success.schema.parse(result.data), result.headers);
      if (!acceptsProgressStream(request)) return answer(contract.success.status, contract.success.schema.parse(await result.progress(async () => {})));
      return progressStreamResponse(async (report) => contract.success.schema.parse(await result.progress(report)), {
        requestId,
        plain: (data) => answer(contract.success.status, data),
        errorLine: (error) => errorBody(toServiceError(error, requestId), requestId, surface),
      });
    };
    try {
      principal = await authenticate(contract, request, db, now, { remembered: contract.apiKeyRecheckedByWrite === true });
      const outcome = await withTenancyRecorder(
        (tenancy) => {
          for (const [field, value] of Object.entries(tenancy)) {
            if (value && !annotations[field as keyof Annotations]) annotations[field as keyof Annotations] = value;
          }
        },
        () => serve(principal),
      ).then(
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
      answered = errorBody(serviceError, requestId, surface);
      response = errorResponse(serviceError, requestId, surface);
      if (attributeFailure && !annotations.workspaceId && requestText) {
        const found = await attributeFailure({ db, body: parsedOrNull(requestText) }).catch(() => null);
        if (found) Object.assign(annotations, found);
      }
    }
    response.headers.set('x-request-id', requestId);
    for (const [name, value] of Object.entries(quotaHeaders)) if (!response.headers.has(name)) response.headers.set(name, value);
    const keyCaller = surface === 'account' ? 'account_key' : 'api_key';
    const write = !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
    const keepBodies = response.status >= 400 || (write && contract.logSuccessBodies !== false);
    requestLog().record({
      requestId,
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      errorCode,
      principal: refusedKeyId ? 'api_key' : principal.kind,
      caller: refusedKeyId || principal.kind === 'api_key' ? keyCaller : principal.kind === 'session' ? 'member' : 'anonymous',
      portal: principal.kind === 'session' && principal.viaCookie === true,
      ip: clientAddress(request),
      userAgent: request.headers.get('user-agent')?.slice(0, 300) ?? null,
      requestBody: keepBodies && write ? loggedText(requestText) : null,
      responseBody: keepBodies ? loggedJson(answered) : null,
      apiKeyId: principal.kind === 'api_key' ? principal.keyId : refusedKeyId,
      userId: principal.kind === 'session' ? principal.userId : null,
      workspaceId: annotations.workspaceId ?? null,
      projectId: annotations.projectId ?? null,
      environmentId: annotations.environmentId ?? null,
      businessId: annotations.businessId ?? null,
      latencyMs: Math.round(performance.now() - startedAt),
      createdAt: now,
    });
    // A write may have queued webhook deliveries: the job engine may start on them now.
    if (write && response.status < 400) forwardQueuedDeliveries();
    return response;
  };
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The caller's address: the first hop a proxy names (`x-forwarded-for`, which next start also sets), if any. */
function clientAddress(request: Request): string | null {
  const forwarded = request.headers.get('x-forwarded-for');
  return forwarded ? forwarded.split(',')[0].trim().slice(0, 100) || null : null;
}

/** The headers a contract declares (by lower-case name), and only those: the rest are not read. */
function declaredHeaders(schema: z.ZodObject, request: Request): Record<string, string | undefined> {
  const picked: Record<string, string | undefined> = {};
  for (const name of Object.keys(schema.shape)) picked[name] = request.headers.get(name) ?? undefined;
  return picked;
}

/** Query parameters, held to the same text rules as bodies (no NUL, no `__proto__`), then parsed. */
function parseQuery<S extends z.ZodType>(schema: S, request: Request, code: ErrorCode): z.output<S> {
  const raw = Object.fromEntries(new URL(request.url).searchParams);
  const violation = jsonViolation(raw, 'query');
  if (violation) {
    throw new ServiceError(code, `Invalid query: ${violation.field}: ${violation.message}`, {
      details: { fields: { [violation.field]: [violation.message] } },
      param: violation.field,
    });
  }
  return parseOrThrow(schema, raw, code, 'query');
}

/**
 * The `Idempotency-Key` of a write (spec 4.4.4), and whose it is: a member's keys are theirs; an
 * API key's belong to its account and environment, so that sibling keys share them.
 */
function idempotencyOf(request: Request, principal: Principal, code: ErrorCode): { scope: string; key: string } | null {
  const header = request.headers.get('idempotency-key');
  if (header === null) return null;
  const parsed = idempotencyKeyHeaderSchema.safeParse(header);
  if (!parsed.success) {
    const message = parsed.error.issues[0].message;
    throw new ServiceError(code, `Invalid headers: idempotency-key: ${message}`, {
      details: { fields: { 'idempotency-key': [message] } },
      param: 'idempotency-key',
    });
  }
  const key = parsed.data;
  switch (principal.kind) {
    case 'session':
      return { scope: `user:${principal.userId}`, key };
    case 'api_key':
      return { scope: `account:${principal.projectId}:${principal.environment}`, key };
    case 'anonymous':
      return null;
  }
}

/** The answer as stored for replays: a one-time secret is shown once, so a replay gets null. */
function withheld(data: unknown, shownOnce: string | undefined): unknown {
  return shownOnce && data && typeof data === 'object' ? { ...data, [shownOnce]: null } : data;
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
  return presented.via === 'cookie' ? { ...session, viaCookie: true } : session;
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
  const result = jsonViolation(value, 'params') ? null : schema.safeParse(value);
  if (!result) throw new ServiceError(code, 'No such resource.');
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
