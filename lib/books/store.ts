/**
 * The books' store: the only place with SQL for books, their drafts and versions, publications
 * and their audit records, the publishing safeguard's settings and the quotes an impact run
 * re-prices, and the per-process memory of compiled versions the quote path prices with. Verbs
 * (one per file in this folder) read as flow over it.
 *
 * In parts, by what they hold: books and drafts, versions (with the compiled-version memory),
 * publications (with their records and the safeguard), and the impact run's reads.
 */
export * from './store/books';
export * from './store/impact';
export * from './store/publications';
export * from './store/versions';
