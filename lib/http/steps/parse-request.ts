import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { parseOrThrow } from '../../errors/parse-or-throw';
import { ServiceError, type ErrorCode } from '../../errors/service-error';
import type { RouteContract } from '../contract';
import { jsonViolation, NOT_UTF8 } from '../../json/json-limits';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from '../read-body';

/** A malformed path id names nothing: 404, like an id that does not exist. */
export function parsePathParams(contract: RouteContract, value: unknown): unknown {
  if (!contract.params) return undefined;
  const code = contract.paramsErrorCode ?? 'not_found';
  const result = jsonViolation(value, 'params') ? null : contract.params.safeParse(value);
  if (!result) throw new ServiceError(code, 'No such resource.');
  if (!result.success) {
    const param = String(result.error.issues[0]?.path[0] ?? '');
    throw new ServiceError(code, `No such ${param || 'resource'}.`, { param });
  }
  return result.data;
}

/**
 * Headers, query and body, validated against the contract (in that order). `onBodyText` gets
 * the body as sent, for the request log, before it is parsed.
 */
export async function parseRequest(contract: RouteContract, request: Request, onBodyText: (text: string) => void) {
  const code = contract.validationCode ?? 'invalid_request';
  const headers = contract.headers ? parseOrThrow(contract.headers, declaredHeaders(contract.headers, request), code, 'headers') : undefined;
  const query = contract.query ? parseQuery(contract.query, request, code) : undefined;
  const body = contract.body
    ? parseOrThrow(contract.body, await readJsonBody(request, contract.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, code, onBodyText), code, 'body')
    : undefined;
  return { headers, query, body };
}

/** The headers a contract declares (by lower-case name), and only those: the rest are not read. */
function declaredHeaders(schema: z.ZodObject, request: Request): Record<string, string | undefined> {
  const picked: Record<string, string | undefined> = {};
  for (const name of Object.keys(schema.shape)) picked[name] = request.headers.get(name) ?? undefined;
  return picked;
}

/** Query parameters, held to the same text rules as bodies (UTF-8, no NUL, no `__proto__`), then parsed. */
function parseQuery<S extends z.ZodType>(schema: S, request: Request, code: ErrorCode): z.output<S> {
  const url = new URL(request.url);
  const raw = Object.fromEntries(url.searchParams);
  const violation = notUtf8Parameter(url.search, raw) ?? jsonViolation(raw, 'query');
  if (violation) {
    throw new ServiceError(code, `Invalid query: ${violation.field}: ${violation.message}`, {
      details: { fields: { [violation.field]: [violation.message] } },
      param: violation.field,
    });
  }
  return parseOrThrow(strictQuery(schema), raw, code, 'query');
}

/**
 * The parameter whose percent-encoded bytes are not UTF-8: URLSearchParams reads them as U+FFFD,
 * and a filter would then match text nobody sent. Looked for only when U+FFFD shows up.
 */
function notUtf8Parameter(search: string, raw: Record<string, string>): { field: string; message: string } | null {
  if (!Object.entries(raw).some(([name, value]) => name.includes('\uFFFD') || value.includes('\uFFFD'))) return null;
  // URL percent-encodes every character beyond ASCII, so each of the text's characters is one byte.
  for (const pair of search.slice(1).split('&')) {
    const bytes = Buffer.from(pair.replaceAll('+', ' ').replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
    if (!isUtf8(bytes)) return { field: new URLSearchParams(pair).keys().next().value ?? 'query', message: NOT_UTF8 };
  }
  return null;
}

const strictQueries = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A query refuses parameters it does not declare, as a body refuses fields (a parameter a route
 * does not have, such as `environment` on a member route, is an error, not silently dropped).
 * Routes that declare no query ignore the query string.
 */
function strictQuery<S extends z.ZodType>(schema: S): S {
  if (!(schema instanceof z.ZodObject)) return schema;
  let strict = strictQueries.get(schema);
  if (!strict) strictQueries.set(schema, (strict = schema.strict()));
  return strict as unknown as S;
}
