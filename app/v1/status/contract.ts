import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';

const jobsSchema = z.object({
  engine: z.enum(['in-process', 'inngest', 'off']).describe('What drives webhook delivery and the minute jobs (JOB_RUNNER).'),
  webhookDelivery: z
    .enum(['running', 'refused', 'off'])
    .describe('`refused`: this instance sends nothing (see `reason`: it cannot open the signing secrets, or reach the database); other instances deliver.'),
  reason: z.string().nullable(),
});

export const statusContract = defineContract({
  operationId: 'getStatus',
  method: 'GET',
  path: '/v1/status',
  summary: 'Liveness: the service is up; whether it reaches its database and can deliver webhooks (readiness: `GET /v1/status/ready`)',
  tags: ['Service'],
  auth: 'anonymous',
  success: {
    status: 200,
    description:
      'The process is up: always 200, never 500. `degraded`: it answers, but cannot reach its database (`database: "unreachable"`) or cannot sign (no webhooks and no quotes); `GET /v1/status/ready` answers 503 then.',
    schema: z
      .object({
        status: z.enum(['ok', 'degraded']),
        version: z.string(),
        time: z.iso.datetime(),
        database: z.enum(['reachable', 'unreachable']).describe('Whether this instance reached its database just now (it waits 2 s at most).'),
        jobs: jobsSchema,
      })
      .meta({ id: 'Status' }),
  },
  errors: [],
});
