import { z } from 'zod';
import type { Scope } from '../auth/scopes';
import type { ErrorCode } from '../errors/service-error';
import type { RateLimitName } from '../ratelimit/registry';

/**
 * The `Idempotency-Key` header of a write that creates something (spec 4.4.4): spec 8 gives 200
 * characters for the account surface's; every route takes the same.
 */
export const idempotencyKeyHeaderSchema = z
  .string()
  .min(1, 'must be 1 to 200 characters')
  .max(200, 'must be 1 to 200 characters')
  .meta({ description: 'Retries with the same key and body replay the first answer for 24 hours; the same key with another body answers 409 `idempotency_conflict`.' });

/** A secret in an answer (`idempotent.shownOnce`): shown once, so a replay answers null in its place. */
export const shownOnceSecret = z
  .string()
  .nullable()
  .meta({ description: 'Shown once. Null when this answer replays an earlier request with the same Idempotency-Key: the secret is never stored.' });

/** `session_or_api_key`: a member's session, or an API key (`sk_…`) acting in its own environment. */
export type AuthModel = 'anonymous' | 'api_key' | 'session' | 'session_or_api_key';

/**
 * A rate limit a route counts against, and what it counts by:
 * - `account`: the API key's account and environment, shared by sibling keys; counted for every
 *   authenticated request, before validation, and reported on every answer (`ratelimit-*`);
 * - `verb`: counted by the route's domain verb, once it knows the request does what the limit is
 *   about (a new acceptance, not a refused or repeated one), by what it resolved (the quote's
 *   business), never by what the body claims; headers on 429 only.
 */
export type RateLimitDeclaration = {
  name: RateLimitName;
  countBy: 'account' | 'verb';
};

/** Spec 8: the account surface's quota, per account and environment. */
export const accountQuota = { name: 'accountRequests', countBy: 'account' } as const satisfies RateLimitDeclaration;

/** Whether answers carry the `ratelimit-*` headers of a quota (every answer, not only 429s). */
export function reportsQuota(contract: Pick<RouteContract, 'rateLimits'>): boolean {
  return contract.rateLimits?.some((limit) => limit.countBy === 'account') ?? false;
}
/**
 * The API reference's sections, in the order a reader meets them (the OpenAPI document's `tags`
 * and the order of its operations).
 */
export const OPERATION_TAGS = [
  'Service',
  'Event types',
  'Events',
  'Public quotes',
  'Quotes',
  'Businesses',
  'Members',
  'Account quotes',
  'Leads',
  'API keys',
  'Books',
  'Experiments',
  'Request logs',
  'Receipt signing keys',
  'Workspaces',
  'Me',
  'Webhook endpoints',
  'Webhook deliveries',
  'Accounts',
] as const;
export type OperationTag = (typeof OPERATION_TAGS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One endpoint's contract: drives validation in the route wrapper, the handler's types and the
 * OpenAPI document, so that the three cannot drift apart.
 */
export type RouteContract<
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends AuthModel = AuthModel,
  H extends z.ZodObject = z.ZodObject,
> = {
  /**
   * The operation's name as a person (and a generated client) calls it: `createQuote`,
   * `listMembers`, `rotateApiKey`. Stable: SDKs and their users depend on it.
   */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/public_quotes/{quoteIntentId}`. */
  path: string;
  summary: string;
  description?: string;
  /** Where readers of the API reference find it: the first tag places it (OPERATION_TAGS' order). */
  tags: OperationTag[];
  auth: A;
  /** Which error body the route answers with (spec 2.1 vs 4.3). */
  surface?: 'standard' | 'account';
  /**
   * The rate limits the route counts against (lib/ratelimit/registry.ts), in order: a 429 and
   * its headers are part of the route's OpenAPI entry because they are declared here.
   */
  rateLimits?: RateLimitDeclaration[];
  /** Account surface: the key scope the route needs (403 `insufficient_scope` without it). */
  scope?: Scope;
  params?: P;
  query?: Q;
  /** Request headers the route reads, by lower-case name. */
  headers?: H;
  body?: B;
  /** Code for a path parameter that names nothing (default `not_found`). */
  paramsErrorCode?: ErrorCode;
  /** Code for a body, query or path that fails validation. */
  validationCode?: ErrorCode;
  /**
   * Every write (POST, PUT, PATCH, DELETE) takes an `Idempotency-Key` header (spec 4.4.4): the
   * wrapper replays the first answer to a retry with the same key and body, and answers 409
   * `idempotency_conflict` to the same key with another body. This says how, when not by default:
   * - `shownOnce` names a field of the answer that holds a secret: it is never stored, and a
   *   replay answers null in its place; `notKept` does the same for dotted paths of personal data
   *   (a lead's contact), so that the answers kept for replays hold nothing erasure must find;
   * - `ownKey`: the route keeps the key itself, with what it creates (the quote routes: body field
   *   or header, stored with the quote), for the reason given;
   * - `exempt`: the route takes no key, for the reason given (a reviewer reads it; a test lists them).
   */
  idempotent?: { shownOnce?: string; notKept?: string[] } | { ownKey: string } | { exempt: string };
  /**
   * Bodies and queries refuse fields they do not declare (`z.strictObject` all the way down; 400
   * or 422 with `details.fields`): the wrapper will not define a route whose schema accepts unknown
   * fields unless this says why (a free-form object a client fills as it likes).
   */
  openFields?: string;
  /** Largest accepted body in bytes (default 100 kB). */
  maxBodyBytes?: number;
  /**
   * `false` for the quote routes: their successful answers are quotes whose trace holds the
   * request and the receipt, so the request log keeps no copy (the hot path stays as it is);
   * failures are kept like any other.
   */
  logSuccessBodies?: false;
  /**
   * The body carries a person's details (a customer's contact): the request log keeps only its
   * JSON, redacted; a body that is not JSON (whose fields cannot be told apart) is not kept at all.
   */
  personalData?: true;
  /**
   * A long computation that reports progress: with `Accept: application/x-ndjson` the answer is
   * a stream of `{"progress": …}` lines ending in the usual envelope (or an error) on one line.
   */
  progress?: { schema: z.ZodType; description: string };
  /**
   * `enveloped: false` when the body is the schema itself, not `{ data, requestId }`;
   * `mediaType` for an answer that is not JSON (a stream of server-sent events: the schema is
   * then one event's data).
   */
  success: { status: number; description: string; schema: R; enveloped?: false; mediaType?: 'text/event-stream' };
  errors: ErrorCode[];
};

/**
 * What a route answers on success (its `data`), as its contract's schema says: the portal types
 * what it reads with this rather than restating it, so a contract change the portal does not
 * follow fails the type check (and so the build).
 */
export type AnswerOf<C extends Pick<RouteContract, 'success'>> = z.output<C['success']['schema']>;

export function defineContract<
  P extends z.ZodType,
  B extends z.ZodType,
  Q extends z.ZodType,
  R extends z.ZodType,
  A extends AuthModel,
  H extends z.ZodObject,
>(contract: RouteContract<P, B, Q, R, A, H>): RouteContract<P, B, Q, R, A, H> {
  return contract;
}

const WRITE_METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * How a route takes an `Idempotency-Key`: `wrapper` (lib/http/steps/idempotency.ts, the default
 * for every write), `own` (the route's own key, stored with what it creates), or `none` (a read,
 * or a write exempt for a stated reason).
 */
export function idempotencyOf(contract: Pick<RouteContract, 'method' | 'idempotent'>): 'wrapper' | 'own' | 'none' {
  if (!WRITE_METHODS.includes(contract.method)) return 'none';
  const declared = contract.idempotent;
  if (declared && 'ownKey' in declared) return 'own';
  if (declared && 'exempt' in declared) return 'none';
  return 'wrapper';
}

/** The field of an answer that holds a secret shown once, if any. */
export function shownOnceOf(contract: Pick<RouteContract, 'idempotent'>): string | undefined {
  const declared = contract.idempotent;
  return declared && 'shownOnce' in declared ? declared.shownOnce : undefined;
}

/** The dotted paths of an answer never kept for replays (a secret shown once, personal data): a replay answers null there. */
export function notKeptOf(contract: Pick<RouteContract, 'idempotent'>): string[] {
  const declared = contract.idempotent;
  if (!declared || 'ownKey' in declared || 'exempt' in declared) return [];
  return [...(declared.shownOnce ? [declared.shownOnce] : []), ...(declared.notKept ?? [])];
}

/**
 * Where a schema would take fields it does not declare: each object that is not strict, by its
 * dotted path ('' for the top). Records and free-form values (`unknown`) are maps by design.
 */
export function openObjectsOf(schema: z.ZodType, path = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const inner = (value: unknown, at = path) => openObjectsOf(value as z.ZodType, at);
  switch (def.type) {
    case 'object': {
      const catchall = def.catchall as z.ZodType | undefined;
      const open = catchall && (catchall as unknown as { _zod: { def: { type: string } } })._zod.def.type === 'never' ? [] : [path];
      const shape = def.shape as Record<string, z.ZodType>;
      return [...open, ...Object.entries(shape).flatMap(([key, value]) => inner(value, path ? `${path}.${key}` : key))];
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => inner(option));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'array':
      return inner(def.element, `${path}[]`);
    case 'record':
      return inner(def.valueType, `${path}.*`);
    case 'lazy':
      return inner((def.getter as () => z.ZodType)());
    default:
      return [];
  }
}
