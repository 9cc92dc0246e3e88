import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';

const jobsSchema = z.object({
  engine: z.enum(['in-process', 'inngest', 'off']).describe('What drives webhook delivery and the minute jobs (JOB_RUNNER).'),
  webhookDelivery: z
    .enum(['running', 'refused', 'off'])
    .describe('`refused`: this instance cannot open the signing secrets (see `reason`), so it sends nothing; other instances deliver.'),
  reason: z.string().nullable(),
});

export const statusContract = defineContract({
  operationId: 'getStatus',
  method: 'GET',
  path: '/v1/status',
  summary: 'Liveness: the service is up and reaches its database; whether this instance can deliver webhooks (readiness: `GET /v1/status/ready`)',
  tags: ['Service'],
  auth: 'anonymous',
  success: {
    status: 200,
    description: 'The service is up (`degraded`: it answers requests, but cannot sign: no webhooks and no quotes; `GET /v1/status/ready` answers 503 then).',
    schema: z
      .object({ status: z.enum(['ok', 'degraded']), version: z.string(), time: z.iso.datetime(), jobs: jobsSchema })
      .meta({ id: 'Status' }),
  },
  errors: [],
});
