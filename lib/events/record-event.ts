import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../db/client';

export type DomainEvent = {
  type: string;
  workspaceId: string;
  projectId?: string | null;
  environmentId?: string | null;
  businessId?: string | null;
  /** The resource the event is about, so that traces find its events by index. */
  subjectId?: string | null;
  data: Record<string, unknown>;
};

/**
 * Writes a domain event to the outbox. Call it inside the transaction of the change that
 * causes the event, so both commit or neither does; delivery happens later, off the request.
 */
export async function recordEvent(db: DbOrTx, event: DomainEvent, now: Date): Promise<string> {
  const id = randomUUID();
  await db.outboxEvent.create({
    data: {
      id,
      type: event.type,
      workspaceId: event.workspaceId,
      projectId: event.projectId ?? null,
      environmentId: event.environmentId ?? null,
      businessId: event.businessId ?? null,
      subjectId: event.subjectId ?? null,
      data: event.data as object,
      createdAt: now,
    },
  });
  return id;
}
