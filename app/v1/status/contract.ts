import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';

export const statusContract = defineContract({
  method: 'GET',
  path: '/v1/status',
  summary: 'Liveness: the service is up and reaches its database',
  tags: ['Service'],
  auth: 'anonymous',
  success: {
    status: 200,
    description: 'The service is up.',
    schema: z.object({ status: z.literal('ok'), version: z.string(), time: z.iso.datetime() }).meta({ id: 'Status' }),
  },
  errors: [],
});
