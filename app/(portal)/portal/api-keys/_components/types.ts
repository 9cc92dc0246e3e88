import type { AnswerOf } from '@/lib/http/contract';
import type { listApiKeysContract } from '@/app/v1/api-keys/contract';

// The /v1/api-keys answers this area reads, typed by their contract (app/v1/api-keys/contract.ts).
export type ApiKey = AnswerOf<typeof listApiKeysContract>['apiKeys'][number];
export type Environment = ApiKey['environment'];

/** A plaintext secret the API returned once, held only until the person presses Done. */
export type RevealedSecret =
  | { kind: 'created'; apiKey: ApiKey; secret: string }
  | { kind: 'rotated'; apiKey: ApiKey; predecessor: ApiKey; secret: string };

export const apiKeysQueryKey = (projectId: string) => ['api-keys', projectId] as const;
