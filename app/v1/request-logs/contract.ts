import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { requestLogDetailSchema, requestLogQuerySchema, requestLogSchema } from '@/lib/requestlog/schemas';

export const searchRequestLogsContract = defineContract({
  operationId: 'listRequestLogs',
  method: 'GET',
  path: '/v1/request-logs',
  summary: 'Search the request log of your workspaces (`logs:read`), newest first',
  tags: ['Request logs'],
  auth: 'session',
  query: requestLogQuerySchema,
  success: {
    status: 200,
    description: 'One page; pass `nextCursor` as `cursor` for the next.',
    schema: z.object({ logs: z.array(requestLogSchema), nextCursor: z.string().nullable() }),
  },
  errors: ['unauthorized', 'forbidden', 'invalid_request'],
});

export const getRequestLogContract = defineContract({
  operationId: 'getRequestLog',
  method: 'GET',
  path: '/v1/request-logs/{requestId}',
  summary: 'One request of the log (`logs:read`): caller, address, user agent, and the redacted bodies of a write or failure',
  tags: ['Request logs'],
  auth: 'session',
  params: z.object({ requestId: z.string().min(1).max(100) }),
  success: { status: 200, description: 'The request.', schema: z.object({ log: requestLogDetailSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found'],
});
