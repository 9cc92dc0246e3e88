import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import type { EventType } from './catalogue';

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

/**
 * The statement part that fans events out into webhook deliveries: one per enabled endpoint of
 * the event's environment whose filter accepts its type. `events` names a CTE with the columns
 * id, type and environment_id; `at` is the SQL expression for the deliveries' timestamps.
 * Writers put it in the statement that writes the event, so an event is born dispatched.
 */
export function fanOutSql(events: string, at: string): string {
  return `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), w.id, e.id, e.type, ${at}, ${at}, ${at}
       FROM ${events} e JOIN webhook_endpoints w ON w.environment_id = e.environment_id
       WHERE w.status = 'enabled' AND w.deleted_at IS NULL
         AND (cardinality(w.event_types) = 0 OR e.type = ANY (w.event_types))
       RETURNING 1`;
}

const RECORD_EVENT_SQL = `WITH new_event AS (
     INSERT INTO outbox_events (id, type, version, workspace_id, project_id, environment_id, business_id, subject_id, data,
       created_at, dispatched_at)
     VALUES ($1::uuid, $2::text, 1, $3::uuid, $4::uuid, $5::uuid, $6::uuid, $7::uuid, $8::json, $9::timestamptz, $9::timestamptz)
     RETURNING id, type, environment_id
   ), deliveries AS (
     ${fanOutSql('new_event', '$9::timestamptz')}
   )
   SELECT (SELECT count(*) FROM deliveries)::int AS deliveries`;

/**
 * Writes a domain event to the outbox with its deliveries. Call it inside the transaction of
 * the change that causes the event, so all commit or none does; sending happens later, off the
 * request.
 */
export async function recordEvent(db: DbOrTx, event: DomainEvent, now: Date): Promise<string> {
  const id = randomUUID();
  await sqlRows(db, RECORD_EVENT_SQL, [
    id,
    event.type,
    event.workspaceId,
    event.projectId ?? null,
    event.environmentId ?? null,
    event.businessId ?? null,
    event.subjectId ?? null,
    JSON.stringify(event.data),
    now,
  ]);
  return id;
}
