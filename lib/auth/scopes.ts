/** Scopes of the account-scoped surface (spec 5.3). */
export const SCOPES = [
  'accounts:read',
  'quote-spec:read',
  'simulations:write',
  'quotes:write',
  'commitments:write',
  'logs:read',
  /** Not in spec 5.3: a Test key's live stream of its environment's events (GET /v1/event-stream, `qps listen`). */
  'events:listen',
] as const;

export type Scope = (typeof SCOPES)[number];
