import type { DbOrTx } from '../../db/client';
import type { EnvironmentKind, WebhookDeliveryStatus } from '../../db/generated/enums';
import { sqlRows } from '../../db/sql';
import { Statement } from '../../db/statement';
import { versionSummaryJson } from '../../books/store/versions';
import { experimentNameJson } from '../../experiments/store';
import { findTracedRequest, retentionSettingsJson } from '../../requestlog/store';
import { businessAccessJson, type BusinessAccessRow } from '../../auth/store';
import { type QuoteIntentRow } from './rows';

// The quotes' store (lib/quotes/store.ts): what a trace shows besides the quote.

type TraceKey = {
  bookVersionId: string | null;
  bookId: string;
  environmentId: string;
  intentId: string;
  /** Whose access to the quote's business (and its workspace) is read with it. */
  userId: string;
  businessId: string | null;
  workspaceId: string;
  /** The experiment the receipt names (format 2), else null. */
  experimentId: string | null;
};

/**
 * What a trace shows besides the quote and its creating request, in one statement: a trace is a
 * page load, and each statement a round trip. With it, who may see the quote (the person's access
 * to its business) and how long its workspace shows requests: the verb decides both before it
 * shows anything. The request is read beside it (findTracedRequest), planned for its values.
 */
const READ_TRACE = new Statement<{ key: TraceKey }>((sql) => {
  const key = (field: keyof TraceKey, type: Parameters<typeof sql.param>[2]) => sql.param('key', field, type);
  return `SELECT
      (SELECT ${versionSummaryJson('v')} FROM book_versions v WHERE v.id = ${key('bookVersionId', 'uuid')}) AS version,
      (SELECT json_build_object('id', b.id, 'key', b.key, 'name', b.name) FROM books b WHERE b.id = ${key('bookId', 'uuid')}) AS book,
      (SELECT json_build_object('kind', e.kind) FROM environments e WHERE e.id = ${key('environmentId', 'uuid')}) AS environment,
      (SELECT ${experimentNameJson('x')} FROM experiments x WHERE x.id = ${key('experimentId', 'uuid')}) AS experiment,
      (SELECT coalesce(json_agg(json_build_object('id', ev.id, 'type', ev.type, 'createdAt', ev.created_at,
           'deliveries', (SELECT coalesce(json_agg(json_build_object('id', d.id, 'endpointId', d.endpoint_id,
                'endpoint', json_build_object('url', w.url, 'deletedAt', w.deleted_at), 'status', d.status,
                'attemptCount', d.attempt_count, 'nextAttemptAt', d.next_attempt_at, 'replayOfId', d.replay_of_id,
                'createdAt', d.created_at) ORDER BY d.created_at, d.id), '[]')
              FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id = ev.id)) ORDER BY ev.seq), '[]')
         FROM outbox_events ev WHERE ev.subject_id = ${key('intentId', 'uuid')}) AS events,
      ${businessAccessJson(key('businessId', 'uuid'), key('userId', 'uuid'))} AS access,
      ${retentionSettingsJson(key('workspaceId', 'uuid'))} AS retention`;
});

/** The statement's row: json_build_object gives timestamps as text, turned back into Dates below. */
type TraceRow = {
  access: BusinessAccessRow | null;
  retention: { days: number | null; longest: number | null } | null;
  version: { id: string; number: number; artifactHash: string } | null;
  book: { id: string; key: string; name: string } | null;
  environment: { kind: EnvironmentKind } | null;
  experiment: { id: string; name: string } | null;
  events: {
    id: string;
    type: string;
    createdAt: string;
    deliveries: {
      id: string;
      endpointId: string;
      endpoint: { url: string; deletedAt: string | null };
      status: WebhookDeliveryStatus;
      attemptCount: number;
      nextAttemptAt: string | null;
      replayOfId: string | null;
      createdAt: string;
    }[];
  }[];
};

const at = (text: string) => new Date(text);
const atOrNull = (text: string | null) => (text === null ? null : new Date(text));

/**
 * The quote's pinned version, book, creating request (its row, whatever the workspace's request
 * log still shows: `retention` says), environment, the experiment its receipt names (its name),
 * and its events with their deliveries; and `userId`'s access to the quote's business.
 */
export async function readTraceOf(db: DbOrTx, stored: QuoteIntentRow, { userId, experimentId }: { userId: string; experimentId: string | null }) {
  const key: TraceKey = {
    bookVersionId: stored.bookVersionId,
    bookId: stored.bookId,
    environmentId: stored.environmentId,
    intentId: stored.id,
    experimentId,
    userId,
    businessId: stored.businessId,
    workspaceId: stored.workspaceId,
  };
  // The creating request in a statement of its own, beside: a read of the log is planned for its values (findTracedRequest).
  const [[row], request] = await Promise.all([
    sqlRows<TraceRow>(db, READ_TRACE.text, READ_TRACE.values({ key })),
    findTracedRequest(db, stored.requestCorrelationId, stored.createdAt),
  ]);
  const events = row.events.map((event) => ({
    ...event,
    createdAt: at(event.createdAt),
    deliveries: event.deliveries.map((d) => ({
      ...d,
      endpoint: { url: d.endpoint.url, deletedAt: atOrNull(d.endpoint.deletedAt) },
      nextAttemptAt: atOrNull(d.nextAttemptAt),
      createdAt: at(d.createdAt),
    })),
  }));
  const retention = { settings: new Map([[stored.workspaceId, row.retention?.days ?? null]]), longest: row.retention?.longest ?? null };
  return { access: row.access, retention, version: row.version, book: row.book, request, environment: row.environment, experiment: row.experiment, events };
}

/** The book a member quotes against, in the connected project, with its Live publication: one read. */
export async function readMemberBook(db: DbOrTx, where: { bookId: string; projectId: string; liveEnvironmentId: string }) {
  const book = await db.book.findFirst({
    where: { id: where.bookId, projectId: where.projectId },
    select: { id: true, publications: { where: { environmentId: where.liveEnvironmentId }, select: { bookVersionId: true, experiment: true } } },
  });
  return book && { bookId: book.id, publishedVersionId: book.publications[0]?.bookVersionId ?? null, experiment: book.publications[0]?.experiment ?? null };
}
