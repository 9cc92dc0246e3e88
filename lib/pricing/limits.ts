// Plain values, without zod: the portal's browser code reads them too (test/unit/layering.test.ts).

/** Largest amount, in minor units, an artifact may state or a running total may reach (10^12). */
export const MAX_MINOR = 1_000_000_000_000;
/** Percent adjustments are basis points: 10000 = 100%. Surcharges may reach +1000%. */
export const MAX_SURCHARGE_BASIS_POINTS = 100_000;
/** How long prices hold when a book does not say (docs/price-book.md). */
export const DEFAULT_QUOTE_VALIDITY_DAYS = 30;
