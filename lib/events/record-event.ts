import { randomUUID } from 'node:crypto';
import type { VerbContext } from '../context/verb-context';
import type { EventType } from './event-types';
import { insertEvent, type OutboxEventRow } from './store';

export type DomainEvent = {
  /** One of the catalogue's types: endpoint filters are validated against the same list. */
  type: EventType;
  workspaceId: string;
  projectId?: string | null;
  environmentId?: string | null;
  businessId?: string | null;
  /** The resource the event is about, so that traces find its events by index. */
  subjectId?: string | null;
  data: Record<string, unknown>;
};

/** The outbox row of an event happening at `now`: version 1, dispatched as it is written. */
export function outboxEventRow(event: DomainEvent, now: Date): OutboxEventRow {
  return {
    id: randomUUID(),
    type: event.type,
    version: 1,
    workspaceId: event.workspaceId,
    projectId: event.projectId ?? null,
    environmentId: event.environmentId ?? null,
    businessId: event.businessId ?? null,
    subjectId: event.subjectId ?? null,
    data: event.data,
    receiptId: null,
    createdAt: now,
    dispatchedAt: now,
  };
}

/**
 * Writes a domain event to the outbox with its deliveries. Call it inside the transaction of
 * the change that causes the event, so all commit or none does; sending happens later, off the
 * request.
 */
export async function recordEvent({ db, now }: Pick<VerbContext, 'db' | 'now'>, event: DomainEvent): Promise<string> {
  const row = outboxEventRow(event, now);
  await insertEvent(db, row);
  return row.id;
}
