// Shapes of the /v1/api-keys answers this area reads (app/v1/api-keys/contract.ts is the source).
export type Environment = 'test' | 'live';

export type ApiKey = {
  id: string;
  name: string;
  environment: Environment;
  status: 'active' | 'rotating' | 'revoked';
  displayPrefix: string;
  last4: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** The key this one replaced by rotation. */
  predecessorId: string | null;
};

/** A plaintext secret the API returned once, held only until the person presses Done. */
export type RevealedSecret =
  | { kind: 'created'; apiKey: ApiKey; secret: string }
  | { kind: 'rotated'; apiKey: ApiKey; predecessor: ApiKey; secret: string };

export const apiKeysQueryKey = (projectId: string) => ['api-keys', projectId] as const;
