import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';
import { requestLogQuerySchema, requestLogSchema } from '@/lib/requestlog/schemas';

export const searchRequestLogsContract = defineContract({
  method: 'GET',
  path: '/v1/request-logs',
  summary: 'Search the request log of your workspaces (`logs:read`), newest first',
  tags: ['Observability'],
  auth: 'session',
  query: requestLogQuerySchema,
  success: {
    status: 200,
    description: 'One page; pass `nextCursor` as `cursor` for the next.',
    schema: z.object({ logs: z.array(requestLogSchema), nextCursor: z.string().nullable() }),
  },
  errors: ['unauthorized', 'forbidden', 'invalid_request'],
});
