import { z } from 'zod';
import { createDocument, createSchema, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_STATUS, type ErrorCode } from '../errors/service-error';
import { EVENT_TYPES } from '../events/event-types';
import { deliverySchema, EVENT_CATALOGUE } from '../event-catalogue/catalogue';
import { OPERATION_TAGS, idempotencyKeyHeaderSchema, idempotencyOf, reportsQuota, type RouteContract } from './contract';
import { MAX_TEST_DELAY_MS, takesApiKey, TEST_FAULT_HEADER, TEST_FAULTS } from './steps/test-fault';
import { NDJSON } from './envelope';

const standardErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      requestId: z.string(),
      details: z.object({ fields: z.record(z.string(), z.array(z.string())).optional() }).catchall(z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error' });

const accountErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string(), param: z.string(), request_id: z.string() }) })
  .meta({ id: 'AccountError' });

/** An error response's body: the envelope, its `code` one of the codes this status carries for this operation (clients type errors by it). */
function errorBodySchema(surface: RouteContract['surface'], codes: [ErrorCode, ...ErrorCode[]]) {
  const narrowed = z.looseObject({ error: z.looseObject({ code: z.enum(codes) }) });
  return z.intersection(surface === 'account' ? accountErrorSchema : standardErrorSchema, narrowed);
}

type HeaderObject = { description: string; schema: { type: 'string' | 'integer' } };
const header = (description: string, type: 'string' | 'integer' = 'string'): HeaderObject => ({ description, schema: { type } });
const requestIdHeader = { 'x-request-id': header('The id of this request.') };
const rateLimitHeaders = {
  'ratelimit-limit': header('Requests allowed in the window.', 'integer'),
  'ratelimit-remaining': header('Requests left in the window.', 'integer'),
  'ratelimit-reset': header('Seconds until the window resets.', 'integer'),
};
const retryAfterHeader = { 'retry-after': header('Seconds to wait before retrying.', 'integer') };
const replayedHeader = { 'idempotent-replayed': header('`true` when this answer replays an earlier request with the same idempotency key.') };

const idempotencyKeyHeader = z.object({ 'idempotency-key': idempotencyKeyHeaderSchema.optional() });
const testFaultHeader = z.object({
  [TEST_FAULT_HEADER]: z
    .string()
    .optional()
    .meta({
      description: `Test keys only (400 with a Live key): answer with a failure as production would, nothing counted or written: ${TEST_FAULTS.map((f) => `\`${f}\``).join(', ')} (at most ${MAX_TEST_DELAY_MS} ms; the request is handled, then answered late). The request log shows it as \`testFault\`.`,
    }),
});

/** Whether a route takes an idempotency key: the generic header, or its own (quote routes). */
function takesIdempotencyKey(contract: RouteContract): boolean {
  return idempotencyOf(contract) === 'wrapper' || (contract.headers !== undefined && 'idempotency-key' in contract.headers.shape);
}

/** OpenAPI security requirements: a list is "any one of". */
const SECURITY: Record<RouteContract['auth'], { [scheme: string]: string[] }[]> = {
  anonymous: [],
  api_key: [{ apiKey: [] }],
  session: [{ session: [] }],
  session_or_api_key: [{ session: [] }, { apiKey: [] }],
};

/** The OpenAPI 3.1 document, built from the same contracts the routes validate with. */
export function buildOpenApiDocument(contracts: RouteContract[]) {
  const paths: ZodOpenApiPathsObject = {};
  // By section, then in the order given (the route table's: by path).
  const bySection = contracts.map((contract, i) => ({ contract, i })).sort(
    (a, b) => OPERATION_TAGS.indexOf(a.contract.tags[0]) - OPERATION_TAGS.indexOf(b.contract.tags[0]) || a.i - b.i,
  );
  for (const { contract } of bySection) {
    const operation: ZodOpenApiOperationObject = {
      operationId: contract.operationId,
      summary: contract.summary,
      description: contract.description,
      tags: contract.tags,
      security: SECURITY[contract.auth],
      requestParams: {
        ...(contract.params ? { path: contract.params as z.ZodObject } : {}),
        ...(contract.query ? { query: contract.query as z.ZodObject } : {}),
        ...headerParams(contract),
      },
      ...(contract.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: contract.body } } } }
        : {}),
      responses: {
        [String(contract.success.status)]: {
          description: contract.success.description,
          headers: {
            ...requestIdHeader,
            ...(reportsQuota(contract) ? rateLimitHeaders : {}),
            ...(takesIdempotencyKey(contract) ? replayedHeader : {}),
          },
          content: contract.success.mediaType ? { [contract.success.mediaType]: { schema: contract.success.schema } } : {
            'application/json': {
              schema:
                contract.success.enveloped === false
                  ? contract.success.schema
                  : z.object({ data: contract.success.schema, requestId: z.string() }),
            },
            ...(contract.progress
              ? {
                  [NDJSON]: {
                    schema: z
                      .union([
                        z.object({ progress: contract.progress.schema }),
                        z.object({ data: contract.success.schema, requestId: z.string() }),
                        standardErrorSchema,
                      ])
                      .meta({ description: contract.progress.description }),
                  },
                }
              : {}),
          },
        },
        ...errorResponses(contract),
      },
    };
    (paths[contract.path] ??= {})[contract.method.toLowerCase() as 'get'] = operation;
  }
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Quote Pricing Service',
      version: '1.0.0',
      description: 'Deterministic quotes against published, versioned price books, with immutable receipts.',
      // Not open source: an SPDX reference of our own (LicenseRef-), as OpenAPI 3.1's `identifier` allows.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Paths are absolute from the service's origin, wherever it runs: the document is served by the service itself.
    servers: [{ url: '/', description: 'The service that serves this document' }],
    tags: [...OPERATION_TAGS, 'Webhook events'].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_…' },
        session: { type: 'http', scheme: 'bearer', description: 'A member’s session token (or the portal’s session cookie).' },
      },
    },
  });
  const { components, ...rest } = document;
  const schemas = { ...components?.schemas };
  // `webhooks` after `paths`, where readers look for them.
  return { ...rest, webhooks: buildWebhooks(schemas), components: { ...components, schemas } };
}

type SchemaObjects = Record<string, unknown>;

/** The request headers every delivery carries (docs/webhooks.md). */
const DELIVERY_HEADERS = [
  { name: 'service-signature', description: '`t=<unix seconds>,v1=<hex>[,v1=<hex>]`: each `v1` the hex HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint’s secret (docs/webhooks.md).' },
  { name: 'service-event-id', description: 'The event’s id (the body’s `id`): deduplicate on it.' },
  { name: 'service-delivery-id', description: 'This delivery (a replay has its own).' },
  { name: 'service-attempt', description: 'The attempt’s number: the attempts started so far, this one included.' },
].map((h) => ({ in: 'header' as const, required: true, schema: { type: 'string' as const }, ...h }));

/**
 * OpenAPI 3.1 `webhooks`: every event type of the catalogue (lib/event-catalogue/catalogue.ts) as the
 * `POST` its deliveries make, the body its delivery envelope with `data` by the type's schema.
 * A body the service sends is its output, as a response is: zod-openapi renders request bodies
 * as input (where `QuoteIntent` would read otherwise and be renamed), so each body is rendered
 * here as output, its components the routes' own by $ref. A component the routes render
 * differently would be a second meaning for one name: that throws.
 */
function buildWebhooks(schemas: SchemaObjects) {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const { schema, components } = createSchema(deliverySchema(type), { io: 'output', openapiVersion: '3.1.0' });
      for (const [id, component] of Object.entries(components ?? {})) {
        if (schemas[id] !== undefined && JSON.stringify(schemas[id]) !== JSON.stringify(component)) {
          throw new Error(`Component ${id} of the ${type} event differs from the routes' ${id}.`);
        }
        schemas[id] = component;
      }
      const { meaning, environment } = EVENT_CATALOGUE[type];
      const post = {
        operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Event`,
        summary: `\`${type}\`: ${meaning}`,
        description: `Delivered to ${environment} endpoints that accept it, signed (docs/webhooks.md). Answer any 2xx within 10 seconds; anything else, or no answer, is retried.`,
        tags: ['Webhook events'],
        // No credential is sent: the receiver checks `service-signature` against its endpoint's secret.
        security: [],
        parameters: DELIVERY_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: {
          '2XX': { description: 'Received: the delivery succeeded.' },
          '4XX': { description: 'Refused: the delivery failed, and is retried on the schedule.' },
        },
      };
      return [type, { post }];
    }),
  );
}

/** The request headers a route documents: its own, the idempotency key, and Test-Fault. */
function headerParams(contract: RouteContract): { header?: z.ZodObject } {
  let header = contract.headers as z.ZodObject | undefined;
  if (idempotencyOf(contract) === 'wrapper') header = (header ?? z.object({})).extend(idempotencyKeyHeader.shape);
  if (takesApiKey(contract)) header = (header ?? z.object({})).extend(testFaultHeader.shape);
  return header ? { header } : {};
}

function errorResponses(contract: RouteContract) {
  const byStatus = new Map<number, ErrorCode[]>();
  // An idempotent write can also refuse its key: malformed, used for another request, or still running.
  const idempotencyErrors: ErrorCode[] = idempotencyOf(contract) === 'wrapper' ? [contract.validationCode ?? 'invalid_request', 'idempotency_conflict', 'conflict'] : [];
  // A body that stops arriving is answered by the route when the server's request timeout runs out.
  const timeoutErrors: ErrorCode[] = contract.body ? ['request_timeout'] : [];
  // A declared rate limit answers 429 when spent.
  const rateLimitErrors: ErrorCode[] = contract.rateLimits?.length ? ['rate_limited'] : [];
  // Test-Fault: a Test key may ask for these (and a Live key that sends it gets 400).
  const testFaultErrors: ErrorCode[] = takesApiKey(contract) ? ['invalid_request', 'rate_limited', 'service_unavailable'] : [];
  // Headers over the limit are refused by the server's edge for every route, in the route's envelope (scripts/http-edge.mjs).
  const edgeErrors: ErrorCode[] = ['headers_too_large'];
  // Every route may fail (500), or meet a database failure that passes by itself (503, retry-after: lib/http/steps/respond.ts).
  for (const code of new Set<ErrorCode>([...contract.errors, ...idempotencyErrors, ...timeoutErrors, ...rateLimitErrors, ...testFaultErrors, ...edgeErrors, 'internal_error', 'service_unavailable'])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: codes.map((c) => `\`${c}\``).join(', '),
        headers: {
          ...requestIdHeader,
          ...(reportsQuota(contract) || status === 429 ? rateLimitHeaders : {}),
          // 429: when to retry; 409 on an idempotent write: the first request is still running.
          ...(status === 429 || status === 503 || (status === 409 && idempotencyOf(contract) === 'wrapper') ? retryAfterHeader : {}),
        },
        content: { 'application/json': { schema: errorBodySchema(contract.surface, codes as [ErrorCode, ...ErrorCode[]]) } },
      },
    ]),
  );
}
