import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';

/** The notifications' store: the only place with SQL for `owner_notifications`. */

/** `experiment_paused`: its subject is the `experiment.paused` event (which says which arm and why). */
export type NotificationKind = 'lead' | 'held_quote' | 'experiment_paused';

export async function insertNotifications(db: DbOrTx, rows: { kind: NotificationKind; businessId: string; subjectId: string; createdAt: Date }[]) {
  if (rows.length === 0) return;
  await db.ownerNotification.createMany({ data: rows.map((r) => ({ ...r, nextAttemptAt: r.createdAt })), skipDuplicates: true });
}

/** The businesses connected (actively) to a project: who hears of its held quotes. */
export async function findBusinessesOfProject(db: DbOrTx, projectId: string): Promise<string[]> {
  const rows = await db.connection.findMany({ where: { projectId, status: 'active' }, select: { businessId: true } });
  return rows.map((r) => r.businessId);
}

export type ClaimedNotification = { id: string; kind: NotificationKind; businessId: string; subjectId: string; attempts: number };

// Claims due notifications for a while (a crashed sender's claim runs out, and they are tried again).
const CLAIM_SQL = `UPDATE owner_notifications n SET attempts = n.attempts + 1, next_attempt_at = $2::timestamptz
  WHERE n.id IN (SELECT id FROM owner_notifications
                  WHERE sent_at IS NULL AND next_attempt_at <= $1::timestamptz AND attempts < $3::int
                  ORDER BY next_attempt_at LIMIT $4::int FOR UPDATE SKIP LOCKED)
  RETURNING n.id::text AS id, n.kind, n.business_id::text AS "businessId", n.subject_id::text AS "subjectId", n.attempts`;

export async function claimDueNotifications(db: DbOrTx, { now, retryAt, maxAttempts, limit }: { now: Date; retryAt: Date; maxAttempts: number; limit: number }) {
  return sqlRows<ClaimedNotification>(db, CLAIM_SQL, [now, retryAt, maxAttempts, limit]);
}

export async function markNotification(db: DbOrTx, id: string, outcome: { sentAt: Date } | { error: string }) {
  await db.ownerNotification.update({
    where: { id },
    data: 'sentAt' in outcome ? { sentAt: outcome.sentAt, lastError: null } : { lastError: outcome.error.slice(0, 500) },
  });
}

/** The active owners' email addresses. */
export async function findOwnerEmails(db: DbOrTx, businessId: string): Promise<string[]> {
  const owners = await db.businessMember.findMany({
    where: { businessId, role: 'owner', status: 'active' },
    select: { user: { select: { email: true } } },
  });
  return owners.map((o) => o.user.email).filter((email): email is string => !!email);
}

/** What a lead's email says: the business's name, the customer's name (unless erased) and the price. */
export async function readLeadForEmail(db: DbOrTx, acceptanceId: string) {
  return db.quoteAcceptance.findUnique({
    where: { id: acceptanceId },
    select: { contactName: true, totalMinor: true, currency: true, quoteIntentId: true },
  });
}

/** What a held quote's email says: its total and currency. */
export async function readHeldQuoteForEmail(db: DbOrTx, accountQuoteId: string) {
  return db.accountQuote.findUnique({ where: { id: accountQuoteId }, select: { lowCents: true, highCents: true, response: true, state: true, reviewDecision: true } });
}

export async function readBusinessName(db: DbOrTx, businessId: string): Promise<string> {
  const business = await db.business.findUniqueOrThrow({ where: { id: businessId }, select: { name: true, displayName: true } });
  return business.displayName ?? business.name;
}

/** What a paused arm's email says: the `experiment.paused` event's data. */
export async function readPauseEventForEmail(db: DbOrTx, eventId: string) {
  const event = await db.outboxEvent.findUnique({ where: { id: eventId }, select: { type: true, data: true } });
  if (!event || event.type !== 'experiment.paused') return null;
  return event.data as { experiment: { name: string; bookId: string; environment: string }; arm: string; reason: string };
}
