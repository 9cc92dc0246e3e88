import { z } from 'zod';
import { sequenceCursorSchema } from '../http/cursors';

export const requestLogSchema = z
  .object({
    requestId: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    errorCode: z.string().nullable(),
    principal: z.enum(['anonymous', 'api_key', 'session']),
    apiKeyId: z.uuid().nullable(),
    userId: z.uuid().nullable(),
    workspaceId: z.uuid().nullable(),
    projectId: z.uuid().nullable(),
    environmentId: z.uuid().nullable(),
    environment: z.enum(['test', 'live']).nullable(),
    businessId: z.uuid().nullable(),
    latencyMs: z.number().int(),
    createdAt: z.iso.datetime(),
    /** The quote this request created, if any. */
    quoteIntentId: z.uuid().nullable(),
  })
  .meta({ id: 'RequestLog' });

export const requestLogQuerySchema = z.object({
  requestId: z.string().max(100).optional(),
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
  cursor: sequenceCursorSchema.optional(),
});

export type RequestLogQuery = z.infer<typeof requestLogQuerySchema>;
