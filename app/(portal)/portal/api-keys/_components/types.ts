import type { AnswerOf } from '@/lib/http/contract';
import type { createApiKeyContract, listApiKeysContract, rotateApiKeyContract } from '@/app/v1/api-keys/contract';

// The /v1/api-keys answers this area reads, typed by their contract (app/v1/api-keys/contract.ts).
export type ApiKey = AnswerOf<typeof listApiKeysContract>['apiKeys'][number];
export type Environment = ApiKey['environment'];

type Created = AnswerOf<typeof createApiKeyContract>;
type Rotated = AnswerOf<typeof rotateApiKeyContract>;

/**
 * A plaintext secret the API returned once, held only until the person presses Done. The answer's
 * secret is null only when it replays an earlier request with the same Idempotency-Key (the
 * portal sends none on these calls): only a secret that came is revealed.
 */
export type RevealedSecret =
  | { kind: 'created'; apiKey: Created['apiKey']; secret: NonNullable<Created['secret']> }
  | { kind: 'rotated'; apiKey: Rotated['successor']; predecessor: Rotated['apiKey']; secret: NonNullable<Rotated['secret']> };

export const apiKeysQueryKey = (projectId: string) => ['api-keys', projectId] as const;
