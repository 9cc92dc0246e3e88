import type { z } from 'zod';
import type { ApiKeyPrincipal, Principal, SessionPrincipal } from '../auth/principal';
import { ServiceError } from '../errors/service-error';
import { getDb, type Db } from '../db/client';
import { RefusedApiKeyError } from '../keys/authenticate-api-key';
import { forwardQueuedDeliveries } from '../jobs/forward-to-inngest';
import { logger, type Logger } from '../observability/logger';
import { withTenancyRecorder } from '../observability/request-context';
import { idempotencyOf, openObjectsOf, type RouteContract } from './contract';
import { newRequestId } from '../requestlog/request-id';
import { authenticate, type Authenticated, type Authenticator } from './steps/authenticate';
import { replayBeforeAuthorizing, runIdempotently } from './steps/idempotency';
import { parsePathParams, parseRequest } from './steps/parse-request';
import { consumeQuotas } from './steps/rate-limits';
import { chooseReadDb, rememberWrite } from './steps/read-after-write';
import { logRequest, type Annotations } from './steps/request-log';
import { Responder, type RawResult } from './steps/respond';
import { injectedFailure, requestedTestFault, waitFor, type TestFault } from './steps/test-fault';

export type HandlerContext<C extends RouteContract> = {
  db: Db;
  /** Where lag-tolerant reads go: the read replica, when there is one and it has the caller's writes (lib/context/verb-context.ts). */
  readDb: Db;
  principal: C['auth'] extends 'api_key'
    ? ApiKeyPrincipal
    : C['auth'] extends 'session'
      ? SessionPrincipal
      : C['auth'] extends 'session_or_api_key'
        ? SessionPrincipal | ApiKeyPrincipal
        : Principal;
  requestId: string;
  /** A logger that stamps the request id on every line. */
  log: Logger;
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
export type AuthorizeContext<C extends RouteContract> = Pick<HandlerContext<C>, 'db' | 'readDb' | 'principal' | 'params' | 'now' | 'requestId' | 'log'>;

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
 * Rate limits are declared in the contract (`rateLimits`), so that the OpenAPI document shows them.
 */
export type RouteDefinition<C extends RouteContract, A> = {
  authorize?: (ctx: AuthorizeContext<C>) => Promise<A> | A;
  /**
   * Whose request a failure was, from what it sent, when nothing else said (an anonymous public
   * quote names its business): its row then shows in that workspace's request log.
   */
  attributeFailure?: (sent: { db: Db; body: unknown }) => Promise<Annotations | null>;
  /**
   * The route's own authentication instead of the contract's `auth` (POST /v1/quotes takes a
   * remembered key from the quote store, which re-checks it in its write).
   */
  authenticate?: Authenticator;
  handle: (ctx: HandlerContext<C> & { access: A }) => Promise<HandlerResult<C>>;
};

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** A route's handler, as a route file exports it: a web Request in, a Response out, and its contract. */
export type RouteHandler = ((request: Request, context: RouteContext) => Promise<Response>) & { readonly contract: RouteContract };

/**
 * The one wrapper every /v1 route handler uses. A request goes through these steps, each in
 * lib/http/steps/: authenticate → account quotas → path → read handle → authorize → headers,
 * query, body → handler (under its Idempotency-Key) → response → the write
 * remembered for read-your-writes → request log. Handlers only
 * call domain code. A bare function is a route with nothing but a handler.
 */
export function defineRoute<C extends RouteContract, A = undefined>(
  contract: C,
  route: RouteDefinition<C, A> | RouteDefinition<C, A>['handle'],
): RouteHandler {
  refuseOpenBody(contract);
  const definition: RouteDefinition<C, A> = typeof route === 'function' ? { handle: route } : route;
  const idempotentByWrapper = idempotencyOf(contract) === 'wrapper';
  const { authorize, handle, attributeFailure } = definition;
  const authenticateCaller: Authenticator = definition.authenticate ?? ((request, db, now) => authenticate(contract, request, db, now));

  const handler = async (request: Request, context: RouteContext): Promise<Response> => {
    const startedAt = performance.now();
    const requestId = newRequestId();
    const now = new Date();
    const db = getDb();
    const log = logger.child({ requestId });
    const responder = new Responder(contract, request, requestId, log);
    const annotations: Annotations = {};
    let principal: Principal = { kind: 'anonymous' };
    let refusedKeyId: string | null = null;
    let quotaHeaders: Record<string, string> = {};
    // The body as sent: the request log may keep it (writes and failures only, redacted).
    let requestText: string | null = null;
    let testFault = null as TestFault | null; // set inside serve()

    /** Everything after authentication, in the order RouteDefinition describes. */
    const serve = async (principal: Principal): Promise<Response> => {
      if (principal.kind === 'api_key') {
        Object.assign(annotations, { workspaceId: principal.workspaceId, projectId: principal.projectId, environmentId: principal.environmentId });
      }
      // A Test request asking for a failure gets it before anything is counted or written.
      testFault = requestedTestFault(request, principal, contract);
      if (testFault && testFault.kind !== 'delay') throw injectedFailure(testFault, contract, requestId);
      quotaHeaders = await consumeQuotas(contract.rateLimits, principal);
      if (contract.scope && principal.kind === 'api_key' && !principal.scopes.includes(contract.scope)) {
        throw new ServiceError('insufficient_scope', `This API key lacks the scope "${contract.scope}".`);
      }
      const params = parsePathParams(contract, await context.params);
      const readDb = await chooseReadDb(request, principal, db);
      const base = { db, readDb, principal, requestId, log, now, params } as AuthorizeContext<C>;
      if (idempotentByWrapper) {
        const replayed = await replayBeforeAuthorizing(contract, { db, request, principal, now }, (status, data, headers) => responder.answer(status, data, headers));
        if (replayed) return replayed;
      }
      const access = authorize ? await authorize(base) : undefined;
      const parsed = await parseRequest(contract, request, (text) => (requestText = text));
      const ctx = {
        ...base,
        ...parsed,
        startedAt,
        request,
        access,
        annotate: (more: Annotations) => Object.assign(annotations, more),
      } as unknown as HandlerContext<C> & { access: A };
      if (!idempotentByWrapper) return responder.respond((await handle(ctx)) as RawResult);
      return runIdempotently(
        contract,
        { db, request, principal, body: parsed.body, now, log },
        async () => {
          const result = (await handle(ctx)) as RawResult;
          if (!('data' in result)) throw new Error('an idempotent route answers with data, not a raw response or a stream');
          return responder.validated(result);
        },
        (status, data, headers) => responder.answer(status, data, headers),
      );
    };

    let response: Response;
    try {
      const authenticated: Authenticated = await authenticateCaller(request, db, now);
      principal = authenticated.principal;
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
      // A caller taken on trust answers nothing its domain did not confirm, whatever else went
      // right or wrong: a key revoked a moment ago gets its 401.
      if (authenticated.confirm) principal = await authenticated.confirm();
      if ('error' in outcome) throw outcome.error;
      response = outcome.served;
    } catch (error) {
      if (error instanceof RefusedApiKeyError) {
        const { keyId, ...tenancy } = error.key;
        refusedKeyId = keyId;
        Object.assign(annotations, tenancy);
      }
      response = responder.fail(error);
      if (attributeFailure && !annotations.workspaceId && requestText) {
        const found = await attributeFailure({ db, body: parsedOrNull(requestText) }).catch(() => null);
        if (found) Object.assign(annotations, found);
      }
    }
    if (testFault?.kind === 'delay') await waitFor(testFault.ms); // done, and answered late
    response.headers.set('x-request-id', requestId);
    for (const [name, value] of Object.entries(quotaHeaders)) if (!response.headers.has(name)) response.headers.set(name, value);
    // The caller's next reads see this write, on a read replica too.
    await rememberWrite(request, principal, response);
    logRequest(contract, {
      requestId,
      request,
      response,
      errorCode: responder.errorCode,
      principal,
      refusedKeyId,
      annotations,
      requestText,
      answered: responder.answered,
      testFault: testFault?.asked ?? null,
      startedAt,
      now,
    });
    // A write may have queued webhook deliveries: the job engine may start on them now.
    if (response.status < 400 && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) forwardQueuedDeliveries();
    return response;
  };
  return Object.assign(handler, { contract });
}

/**
 * A body schema that takes fields it does not declare is a contract mistake (the project refuses
 * them, as Stripe does): caught when the route is defined, so that no route ships with one, unless
 * the contract says why (`openFields`).
 */
function refuseOpenBody(contract: RouteContract): void {
  if (!contract.body || contract.openFields) return;
  const open = openObjectsOf(contract.body);
  if (open.length > 0) {
    throw new Error(`${contract.method} ${contract.path}: its body accepts unknown fields at ${open.map((p) => p || '(top)').join(', ')}: use z.strictObject, or say why in openFields`);
  }
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
