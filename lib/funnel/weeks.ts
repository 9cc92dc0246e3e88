// Plain values, without zod: the portal's browser code reads them too (test/unit/layering.test.ts).

/** The longest funnel a person may ask for, in ISO weeks, and the one they get by default. */
export const FUNNEL_MAX_WEEKS = 52;
export const FUNNEL_DEFAULT_WEEKS = 12;
