import { z } from 'zod';
import { SCOPES } from '@/lib/auth/scopes';
import { defineContract, shownOnceSecret, type OperationTag } from '@/lib/http/contract';
import { DEFAULT_GRACE_MINUTES, MAX_GRACE_MINUTES } from '@/lib/keys/rotate-api-key';
import { apiKeyViewSchema } from '@/lib/keys/schemas';

const tags: OperationTag[] = ['API keys'];
const keyParams = z.object({ keyId: z.uuid() });
const listedKey = apiKeyViewSchema.extend({ projectId: z.uuid(), predecessorId: z.uuid().nullable() });

export const createApiKeyContract = defineContract({
  operationId: 'createApiKey',
  method: 'POST',
  path: '/v1/api-keys',
  summary: 'Create an API key for a project’s Test or Live environment',
  description: 'Needs the workspace permission `api_keys:create`. The secret is returned here once; only its digest is stored.',
  tags,
  auth: 'session',
  body: z
    .strictObject({
      name: z.string().trim().min(1).max(200),
      projectId: z.uuid(),
      environment: z.enum(['test', 'live']),
      scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).optional(),
    })
    .meta({ id: 'CreateApiKeyRequest' }),
  idempotent: { shownOnce: 'secret' },
  success: {
    status: 201,
    description: 'The key and its secret (shown once).',
    schema: z.object({ apiKey: apiKeyViewSchema, secret: shownOnceSecret }),
  },
  errors: ['unauthorized', 'forbidden', 'not_found', 'invalid_request'],
});

export const listApiKeysContract = defineContract({
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/v1/api-keys',
  summary: 'API keys of your workspaces’ projects (never their secrets)',
  tags,
  auth: 'session',
  query: z.object({ projectId: z.uuid().optional(), environment: z.enum(['test', 'live']).optional() }),
  success: { status: 200, description: 'Newest first.', schema: z.object({ apiKeys: z.array(listedKey) }) },
  errors: ['unauthorized', 'invalid_request'],
});

export const rotateApiKeyContract = defineContract({
  operationId: 'rotateApiKey',
  method: 'POST',
  path: '/v1/api-keys/{keyId}/rotation',
  summary: 'Rotate a key: a successor is minted; the old key keeps working for the grace window',
  tags,
  auth: 'session',
  params: keyParams,
  body: z
    .strictObject({
      graceMinutes: z.number().int().min(0).max(MAX_GRACE_MINUTES).default(DEFAULT_GRACE_MINUTES),
    })
    .default({ graceMinutes: DEFAULT_GRACE_MINUTES })
    .meta({ id: 'RotateApiKeyRequest' }),
  idempotent: { shownOnce: 'secret' },
  success: {
    status: 200,
    description: 'The old key (rotating or revoked), its successor, and the successor’s secret (shown once).',
    schema: z.object({ apiKey: apiKeyViewSchema, successor: apiKeyViewSchema, secret: shownOnceSecret }),
  },
  errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'invalid_request'],
});

export const revokeApiKeyContract = defineContract({
  operationId: 'revokeApiKey',
  method: 'POST',
  path: '/v1/api-keys/{keyId}/revocation',
  summary: 'Revoke a key at once (idempotent; the first revocation time is kept)',
  tags,
  auth: 'session',
  params: keyParams,
  success: { status: 200, description: 'The revoked key.', schema: z.object({ apiKey: apiKeyViewSchema }) },
  errors: ['unauthorized', 'forbidden', 'not_found'],
});
