import { z } from 'zod';
import { timeSequenceCursorSchema } from '../db/cursors';

export const requestLogSchema = z
  .object({
    requestId: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    errorCode: z.string().nullable(),
    principal: z.enum(['anonymous', 'api_key', 'session']),
    caller: z.enum(['api_key', 'account_key', 'member', 'anonymous']).meta({ description: 'Who called: an API key, an API key on the account surface, a member, or nobody signed in.' }),
    portal: z.boolean().meta({ description: 'A member\'s request made by the portal itself.' }),
    apiKeyId: z.uuid().nullable(),
    /** The key's name when it still exists in the workspace. */
    apiKeyName: z.string().nullable(),
    userId: z.uuid().nullable(),
    memberEmail: z.string().nullable(),
    workspaceId: z.uuid().nullable(),
    projectId: z.uuid().nullable(),
    environmentId: z.uuid().nullable(),
    environment: z.enum(['test', 'live']).nullable(),
    businessId: z.uuid().nullable(),
    latencyMs: z.number().int(),
    testFault: z
      .string()
      .nullable()
      .meta({ description: 'The failure this Test request asked for with its `Test-Fault` header (`rate_limited`, `server_error`, `unavailable`, `delay=<ms>`): the answer was injected. Null for every other request.' }),
    createdAt: z.iso.datetime(),
    /** The quote this request created, if any. */
    quoteIntentId: z.uuid().nullable(),
  })
  .meta({ id: 'RequestLog' });

/** One request with what the log kept of its exchange (GET /v1/request-logs/{requestId}). */
export const requestLogDetailSchema = requestLogSchema
  .extend({
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    requestBody: z.string().nullable().meta({ description: 'The request body of a write or failure as JSON text, secrets redacted, at most 8 KB; null when not kept or forgotten.' }),
    responseBody: z.string().nullable().meta({ description: 'The answer of a write or failure (the error envelope) as JSON text, secrets redacted, at most 8 KB.' }),
    bodiesKeptUntil: z.iso.datetime().meta({ description: 'Bodies are forgotten 30 days after the request.' }),
  })
  .meta({ id: 'RequestLogDetail' });

export const requestLogQuerySchema = z.object({
  requestId: z.string().max(100).optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  caller: z.enum(['api_key', 'account_key', 'member', 'anonymous']).optional(),
  /** `exclude` leaves out the portal's own requests (what the portal does by default), `only` keeps just them. */
  portal: z.enum(['exclude', 'only']).optional(),
  status: z.coerce.number().int().min(100).max(599).optional(),
  /** `4xx` / `5xx` style classes are accepted too. */
  statusClass: z.enum(['2xx', '3xx', '4xx', '5xx']).optional(),
  path: z.string().max(300).optional(),
  apiKeyId: z.uuid().optional(),
  environment: z.enum(['test', 'live']).optional(),
  projectId: z.uuid().optional(),
  businessId: z.uuid().optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: timeSequenceCursorSchema.optional(),
});

export type RequestLogQuery = z.infer<typeof requestLogQuerySchema>;
