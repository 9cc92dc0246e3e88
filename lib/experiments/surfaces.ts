// Plain values, without zod: the portal's browser code reads them too (test/unit/layering.test.ts).

/**
 * Where an experiment's quotes come from: the hosted quote page, API-key quotes (POST /v1/quotes),
 * the account surface's quotes (POST /v1/accounts/{id}/quotes: the only ones that are committed)
 * and business members' quotes in the portal (the business's own people: off by default).
 */
export const EXPERIMENT_SURFACES = ['hosted', 'api', 'account', 'member'] as const;
export type ExperimentSurface = (typeof EXPERIMENT_SURFACES)[number];
export const DEFAULT_SURFACES: readonly ExperimentSurface[] = ['hosted', 'api', 'account'];
