import createFetchClient, { type Client as FetchClient } from 'openapi-fetch';
import { QuotePricingConnectionError, QuotePricingError } from './errors.js';
import type { operations, paths } from './generated/openapi.js';
import { OPERATIONS, type OperationId } from './generated/operations.js';
import { cachedKeySet, type KeySetSource, type ReceiptKeySet } from './receipts.js';
import { buildResources, type Resources } from './resources.js';

export const SDK_VERSION = '0.1.0';

export type ClientOptions = {
  /** The service's origin, e.g. `https://quotes.example.com` (no `/v1`). */
  baseUrl: string;
  /** An API key (`sk_test_…`, `sk_live_…`) or a member's session token: sent as `Authorization: Bearer …`. */
  apiKey?: string;
  /** Retries after the first attempt (default 2): 429s, and 5xx and network errors where a replay is safe. */
  maxRetries?: number;
  /** The longest the client waits before a retry (default 30 s); a longer `retry-after` is thrown to the caller. */
  maxRetryWaitMs?: number;
  /** A fetch of your own (a proxy, instrumentation); the global one by default. */
  fetch?: typeof fetch;
};

type Operation<K extends OperationId> = operations[K];
type ParametersOf<K extends OperationId> = Operation<K> extends { parameters: infer P } ? P : never;
type PathParams<K extends OperationId> = ParametersOf<K> extends { path?: infer T } ? NonNullable<T> : never;
export type QueryParams<K extends OperationId> = ParametersOf<K> extends { query?: infer T } ? NonNullable<T> : never;
export type RequestBody<K extends OperationId> = Operation<K> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type SuccessBody<K extends OperationId> = JsonOf<Operation<K>['responses'][Extract<keyof Operation<K>['responses'], SuccessStatus>]>;

/** What an operation answers: the `data` of the envelope, or the body where there is no envelope. */
export type OperationData<K extends OperationId> = SuccessBody<K> extends { data: infer D; requestId: string } ? D : SuccessBody<K>;

type Slot<Name extends string, T> = [T] extends [never] ? { [N in Name]?: undefined } : {} extends T ? { [N in Name]?: T } : { [N in Name]: T };

/** One call's input: its path parameters, query and body as the document types them, and extras. */
export type CallInit<K extends OperationId> = Slot<'path', PathParams<K>> &
  Slot<'query', QueryParams<K>> &
  Slot<'body', RequestBody<K>> & {
    /** Extra request headers (`Test-Fault` in Test, for one). */
    headers?: Record<string, string>;
    /** This call's idempotency key; made once per call when not given, and sent again on every retry. */
    idempotencyKey?: string;
    /**
     * Who is priced (`Quote-Subject`), for quote operations: while an experiment runs on the book
     * the same subject always gets the same arm. An opaque id of yours, not an email.
     */
    subject?: string;
    signal?: AbortSignal;
  };

type InitArgs<K extends OperationId> = {} extends CallInit<K> ? [init?: CallInit<K>] : [init: CallInit<K>];

/** A success with what came with it. */
export type CallResult<K extends OperationId> = {
  data: OperationData<K>;
  status: number;
  requestId: string | null;
  /** The key the call was made under (operations that take one). */
  idempotencyKey: string | null;
  /** True when the service answered with the replay of an earlier call under the same key. */
  replayed: boolean;
  headers: Headers;
  /** Attempts made, retries included. */
  attempts: number;
};

/** Operations that page through a cursor. */
export type PaginatedOperationId = { [K in OperationId]: (typeof OPERATIONS)[K]['page'] extends null ? never : K }[OperationId];
type ItemsKey<K extends PaginatedOperationId> = (typeof OPERATIONS)[K]['page'] extends { items: infer I extends string } ? I : never;
export type PageItem<K extends PaginatedOperationId> = OperationData<K> extends { [F in ItemsKey<K>]: Array<infer T> } ? T : never;

type OperationMethods = { [K in OperationId]: (...args: InitArgs<K>) => Promise<OperationData<K>> };

const REPLAY_SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

/**
 * The API's client. Its resources (`qps.quotes.create(params)`, `qps.webhookEndpoints.retrieve(id)`,
 * `qps.businesses(id).members.list()`) are generated from the document's tags and operation ids;
 * underneath, every operation is also a flat method named by its id (`qps.createQuote({ body })`),
 * `request` answers with the status, headers and request id too, and `paginate` walks a list's pages.
 */
export class QuotePricingClient {
  /** The openapi-fetch client underneath, typed by path, for calls by URL. */
  readonly raw: FetchClient<paths>;
  /** The service's receipt signing keys (GET /v1/receipt-signing-keys), fetched again when a receipt names a new one. */
  readonly receiptKeys: KeySetSource;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;

  constructor(options: ClientOptions) {
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000;
    this.raw = createFetchClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: options.fetch,
      headers: {
        'user-agent': `quote-pricing-sdk/${SDK_VERSION}`,
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
    });
    Object.assign(this, buildResources((operationId, init) => this.request(operationId, init as never)));
    this.receiptKeys = cachedKeySet(async () => (await this.request('listReceiptSigningKeys')).data as ReceiptKeySet);
  }

  /** Calls an operation by id: its data, status, headers and request id, or a QuotePricingError. */
  async request<K extends OperationId>(operationId: K, ...[init]: InitArgs<K>): Promise<CallResult<K>> {
    const operation = OPERATIONS[operationId];
    if (!operation) throw new TypeError(`Unknown operation "${String(operationId)}".`);
    const given = (init ?? {}) as { path?: object; query?: object; body?: unknown; headers?: Record<string, string>; idempotencyKey?: string; subject?: string; signal?: AbortSignal };
    const headers: Record<string, string> = { ...given.headers };
    if (given.subject !== undefined) {
      if (!operation.subject) throw new TypeError(`${String(operationId)} takes no subject: only quote operations do (Quote-Subject).`);
      headers['quote-subject'] = given.subject;
    }
    const idempotencyKey = operation.idempotencyKey
      ? (given.idempotencyKey ?? headerIn(headers, 'idempotency-key') ?? globalThis.crypto.randomUUID())
      : null;
    if (idempotencyKey) {
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'idempotency-key') delete headers[name];
      headers['idempotency-key'] = idempotencyKey;
    }
    // A replay is safe where the method says so, or where the call's idempotency key makes the service answer it once.
    const replaySafe = REPLAY_SAFE_METHODS.has(operation.method) || idempotencyKey !== null;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      let body: unknown;
      try {
        // By id, the method and path are known only at run time: openapi-fetch's `request` is typed
        // for literal ones, so it is called untyped here (the operation's own types are above).
        const answer = await (this.raw as unknown as { request: (m: string, p: string, i: object) => Promise<{ data?: unknown; error?: unknown; response: Response }> }).request(
          operation.method.toLowerCase(),
          operation.path,
          { params: { path: given.path, query: given.query }, body: given.body, headers, signal: given.signal },
        );
        response = answer.response;
        body = answer.data ?? answer.error;
      } catch (error) {
        if (given.signal?.aborted) throw error;
        if (replaySafe && attempt <= this.maxRetries) {
          await sleep(backoffMs(attempt));
          continue;
        }
        throw new QuotePricingConnectionError(`${operation.method} ${operation.path} got no answer: ${(error as Error).message}`, { cause: error });
      }
      if (response.ok) {
        const enveloped = operation.enveloped && body !== undefined;
        return {
          data: (enveloped ? (body as { data: unknown }).data : body) as OperationData<K>,
          status: response.status,
          requestId: response.headers.get('x-request-id'),
          idempotencyKey,
          replayed: response.headers.get('idempotent-replayed') === 'true',
          headers: response.headers,
          attempts: attempt,
        };
      }
      const error = new QuotePricingError(response.status, body, response.headers, operation.surface, operationId);
      const wait = this.retryWait(error, attempt, replaySafe);
      if (wait === null) throw error;
      await sleep(wait);
    }
  }

  /** Every item of a cursor-paginated list, page after page, as an async iterator. */
  async *paginate<K extends PaginatedOperationId>(operationId: K, ...[init]: InitArgs<K>): AsyncGenerator<PageItem<K>> {
    const page = OPERATIONS[operationId].page!;
    const given = (init ?? {}) as { query?: Record<string, unknown> };
    let cursor = given.query?.cursor as string | undefined;
    for (;;) {
      const args = [{ ...given, query: { ...given.query, ...(cursor ? { cursor } : {}) } }] as unknown as InitArgs<K>;
      const { data } = await this.request(operationId, ...args);
      const fields = data as Record<string, unknown>;
      for (const item of fields[page.items] as PageItem<K>[]) yield item;
      cursor = (fields[page.nextCursor] as string | null) ?? undefined;
      if (!cursor) return;
    }
  }

  /** How long to wait before retrying this failure, or null to give it to the caller. */
  private retryWait(error: QuotePricingError, attempt: number, replaySafe: boolean): number | null {
    if (attempt > this.maxRetries) return null;
    // A 429 was refused before any work: always safe to send again, once the service says so.
    const retryable = error.status === 429 || (replaySafe && RETRIED_STATUSES.has(error.status));
    if (!retryable) return null;
    const wait = error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : backoffMs(attempt);
    return wait <= this.maxRetryWaitMs ? wait : null;
  }
}

export interface QuotePricingClient extends OperationMethods, Resources {}

for (const operationId of Object.keys(OPERATIONS) as OperationId[]) {
  Object.defineProperty(QuotePricingClient.prototype, operationId, {
    value(this: QuotePricingClient, init?: object) {
      return this.request(operationId, init as never).then((result) => result.data);
    },
  });
}

export function createClient(options: ClientOptions): QuotePricingClient {
  return new QuotePricingClient(options);
}

function headerIn(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** Exponential back-off with full jitter: up to 0.5 s, 1 s, 2 s, … (at most 8 s). */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(8_000, 500 * 2 ** (attempt - 1));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
