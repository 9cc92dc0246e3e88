import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';

export const readinessContract = defineContract({
  operationId: 'getReadiness',
  method: 'GET',
  path: '/v1/status/ready',
  summary: 'Readiness, for a load balancer: 200 only while this instance can quote',
  description:
    'Checks what a quote needs on this instance: the database, the sealing key (the same as every other instance’s), and a receipt signing key it can sign with (made here if none exists yet, so the published key set is never empty once an instance is ready). 503 `service_unavailable` with the reason otherwise: keep the instance out of rotation. `GET /v1/status` is liveness.',
  tags: ['Service'],
  auth: 'anonymous',
  success: {
    status: 200,
    description: 'This instance can quote.',
    schema: z.object({ ready: z.literal(true), receiptSigningKid: z.string().describe('The key this instance signs receipts with now.') }).meta({ id: 'Readiness' }),
  },
  errors: ['service_unavailable'],
});
