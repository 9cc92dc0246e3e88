/**
 * The webhooks' store: the only place with SQL and Prisma calls for endpoints, deliveries and
 * attempts. In four parts: endpoints, deliveries as the
 * API shows them with the writes that are not sending (replays, test events, cancelling, the
 * outbox dispatch, forwarding to Inngest, health figures), the sending engine's claims,
 * leases and attempt records, and the slots of open event streams. Verbs (one per file beside
 * this one) read as flow over it.
 */
export * from './store/endpoints';
export * from './store/deliveries';
export * from './store/sending';
export * from './store/stream-leases';
