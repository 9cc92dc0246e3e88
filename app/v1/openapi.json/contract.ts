import { z } from 'zod';
import { defineContract } from '@/lib/http/contract';

export const openApiContract = defineContract({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/v1/openapi.json',
  summary: 'This OpenAPI document',
  tags: ['Service'],
  auth: 'anonymous',
  success: {
    status: 200,
    description: 'The OpenAPI 3.1 document.',
    schema: z.object({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }).loose(),
    enveloped: false,
  },
  errors: [],
});
