/** Scopes of the account-scoped surface (spec 5.3). */
export const SCOPES = [
  'accounts:read',
  'quote-spec:read',
  'simulations:write',
  'quotes:write',
  'commitments:write',
  'logs:read',
] as const;

export type Scope = (typeof SCOPES)[number];
