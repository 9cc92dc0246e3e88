// The resource layer (`qps.quotes.create(params)`, `qps.accounts(id).quotes.create(params)`):
// made at run time from the generated resource table, typed from the same table, and calling
// the flat layer's `request`. Nothing here names an operation.
import type { OperationData, PageItem, PaginatedOperationId, QueryParams, RequestBody } from './client.js';
import { OPERATIONS, type OperationId } from './generated/operations.js';
import { RESOURCES, SCOPED_RESOURCES } from './generated/resources.js';

/** What every resource method takes last. */
export type RequestOptions = {
  /** This call's idempotency key; made once per call when not given, and sent again on every retry. */
  idempotencyKey?: string;
  /** Who is priced (`Quote-Subject`), for quote operations: the same subject always gets the same experiment arm. */
  subject?: string;
  /** Extra request headers (`Test-Fault` in Test, for one). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/** The one params object of an operation: its JSON body, or its query. */
export type ParamsOf<K extends OperationId> = (typeof OPERATIONS)[K]['params'] extends 'body'
  ? RequestBody<K>
  : (typeof OPERATIONS)[K]['params'] extends 'query'
    ? QueryParams<K>
    : never;
type ParamsArg<K extends OperationId> = [ParamsOf<K>] extends [never] ? [] : {} extends ParamsOf<K> ? [params?: ParamsOf<K>] : [params: ParamsOf<K>];
type PositionalArgs<Names extends readonly string[]> = { -readonly [I in keyof Names]: string };

/**
 * A list's answer, as Stripe's: `await` it for the first page, or `for await` it for every item
 * of every page (the next page is fetched when the loop reaches it).
 */
export type ListPromise<Page, Item> = Promise<Page> & AsyncIterable<Item>;

type Answer<K extends OperationId> = K extends PaginatedOperationId ? ListPromise<OperationData<K>, PageItem<K>> : Promise<OperationData<K>>;

/** `(...pathParams, params, options)`. */
export type ResourceMethod<K extends OperationId, Args extends readonly string[]> = (
  ...args: [...PositionalArgs<Args>, ...ParamsArg<K>, options?: RequestOptions]
) => Answer<K>;

type MethodsOf<T> = { [M in keyof T]: T[M] extends { operation: infer K extends OperationId; args: infer A extends readonly string[] } ? ResourceMethod<K, A> : never };
type Scoped = typeof SCOPED_RESOURCES;

/** `qps.<resource>`: its methods, and for a resource with children, a call with its id that reaches them. */
export type Resources = {
  [R in keyof typeof RESOURCES]: MethodsOf<(typeof RESOURCES)[R]> &
    (R extends keyof Scoped ? (id: string) => { [C in keyof Scoped[R]['children']]: MethodsOf<Scoped[R]['children'][C]> } : unknown);
} & {
  [R in Exclude<keyof Scoped, keyof typeof RESOURCES>]: (id: string) => { [C in keyof Scoped[R]['children']]: MethodsOf<Scoped[R]['children'][C]> };
};

/** The client's `request`, untyped: the resource table holds the types. */
export type Caller = (operationId: OperationId, init: object) => Promise<{ data: unknown }>;
type Entry = { operation: string; args: readonly string[] };

function method(client: Caller, entry: Entry, scope: Record<string, string>) {
  const operationId = entry.operation as OperationId;
  const operation = OPERATIONS[operationId];
  return (...args: unknown[]) => {
    const path: Record<string, unknown> = { ...scope };
    entry.args.forEach((name, i) => (path[name] = args[i]));
    const rest = args.slice(entry.args.length);
    const params = operation.params ? (rest.shift() as object | undefined) : undefined;
    const options = (rest.shift() ?? {}) as RequestOptions;
    const init = {
      ...options,
      ...(operation.pathParams.length ? { path } : {}),
      ...(operation.params && params !== undefined ? { [operation.params]: params } : {}),
    };
    const first = client(operationId, init).then((result) => result.data);
    if (!operation.page) return first;
    // Iterating starts from the page `first` fetches: one request per page, awaited or not.
    first.catch(() => {});
    const page = operation.page;
    async function* walk() {
      let data = (await first) as Record<string, unknown>;
      for (;;) {
        yield* data[page.items] as unknown[];
        const cursor = data[page.nextCursor] as string | null | undefined;
        if (!cursor) return;
        const query = { ...(init as { query?: object }).query, cursor };
        data = (await client(operationId, { ...init, query })).data as Record<string, unknown>;
      }
    }
    return Object.assign(first, { [Symbol.asyncIterator]: walk });
  };
}

function methods(client: Caller, table: Record<string, Entry>, scope: Record<string, string>) {
  return Object.fromEntries(Object.entries(table).map(([name, entry]) => [name, method(client, entry, scope)]));
}

/** Every resource of the table, bound to a client. */
export function buildResources(client: Caller): Resources {
  const resources: Record<string, object> = {};
  const names = new Set([...Object.keys(RESOURCES), ...Object.keys(SCOPED_RESOURCES)]);
  for (const name of names) {
    const own = methods(client, (RESOURCES as Record<string, Record<string, Entry>>)[name] ?? {}, {});
    const scoped = (SCOPED_RESOURCES as Record<string, { param: string; children: Record<string, Record<string, Entry>> }>)[name];
    resources[name] = scoped
      ? Object.assign(
          (id: string) => Object.fromEntries(Object.entries(scoped.children).map(([child, table]) => [child, methods(client, table, { [scoped.param]: id })])),
          own,
        )
      : own;
  }
  return resources as Resources;
}
