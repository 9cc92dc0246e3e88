import type { DbOrTx } from '../db/client';
import { emailConfigured } from './mailer';
import { findBusinessesOfProject, insertNotifications, type NotificationKind } from './store';

/**
 * Queues an email to the owners of a business (or of every business connected to a project)
 * about a new lead or a held quote, in the transaction of its cause. Off unless SMTP_URL is set:
 * the portal and webhooks tell the business anyway.
 */
export async function queueOwnerNotification(
  db: DbOrTx,
  notice: { kind: NotificationKind; subjectId: string; now: Date } & ({ businessId: string } | { projectId: string }),
): Promise<void> {
  if (!emailConfigured()) return;
  const businessIds = 'businessId' in notice ? [notice.businessId] : await findBusinessesOfProject(db, notice.projectId);
  await insertNotifications(
    db,
    businessIds.map((businessId) => ({ kind: notice.kind, businessId, subjectId: notice.subjectId, createdAt: notice.now })),
  );
}
