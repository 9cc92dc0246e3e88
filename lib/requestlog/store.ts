/**
 * The request log's store: the only place with SQL for `request_logs` (the batched insert, the
 * searches, forgetting bodies) and for the names a log row's view shows (its quote, its key's
 * name, its member's email). In three parts: the rows, each workspace's retention, and the day
 * partitions. Verbs and the writer (request-log-writer.ts) read as flow over it.
 */
export * from './store/rows';
export * from './store/retention';
export * from './store/partitions';
