import { z } from 'zod';

const apiKeyStatusSchema = z.enum(['active', 'rotating', 'revoked']);

/** What may be shown of a key after creation: never the secret. */
export const apiKeyViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    environment: z.enum(['test', 'live']),
    status: apiKeyStatusSchema,
    displayPrefix: z.string(),
    last4: z.string(),
    scopes: z.array(z.string()),
    createdAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKey' });

export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;
