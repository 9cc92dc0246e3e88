/**
 * The quotes' store: the only place with SQL for quote intents and receipts, the per-process
 * memories the quote path answers from (scopes, API keys), and the insert that re-checks both,
 * which is what makes those memories safe. Verbs (create-quote.ts and its callers) read as flow.
 *
 * In parts: the rows and their column maps, reads (a quote, a business's list, expiry), what a
 * trace shows, scopes (read fresh or remembered), API keys taken from memory, the receipts
 * audit's batches, and the write of a quote with its re-checks.
 *
 * To add a field to the receipt: docs/receipts.md, "Adding a receipt field" (a new format; its
 * column in `quoteReceipts`, store/rows.ts). Inserts and reads follow the map.
 */
export * from './store/rows';
export * from './store/reads';
export * from './store/trace';
export * from './store/scopes';
export * from './store/keys';
export * from './store/audit';
export * from './store/write';
export * from './store/rollup';
export * from './store/funnel-rollup';
