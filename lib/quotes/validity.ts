const DAY_MS = 86_400_000;

/**
 * Until when a price made at `madeAt` holds, under a book version that gives prices
 * `validityDays` days (0: they never expire). The same rule for quote intents and account quotes.
 */
export function priceValidUntil(madeAt: Date, validityDays: number): Date | null {
  return validityDays > 0 ? new Date(madeAt.getTime() + validityDays * DAY_MS) : null;
}
