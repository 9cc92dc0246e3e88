import { businessAccess, requireWorkspaceMember, toBusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import { readFresh, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { shownSinceBy, shownSinceOfWorkspace } from '../requestlog/retention';
import { ASSIGNMENT_BUCKETS } from '../experiments/assignment';
import { asOf } from './expire-quote-intents';
import { toQuoteResult } from './quote-views';
import { findQuote, readTraceOf } from './store';

/**
 * Everything that explains one quote: the intent and receipt, the pinned book version, the
 * experiment arm that priced it (format 2 receipts), the request that created it, and the events
 * it caused with their webhook deliveries.
 * `id` may be the quote intent's id or the id of the request that created it. Workspace members
 * trace any quote of the workspace, active members of a business the quotes of that business.
 * The quote and what explains it come from the read replica when there is one (from the primary
 * when the replica does not have the quote yet); who may see it is decided on the primary.
 */
export async function traceQuote(ctx: VerbContext<SessionPrincipal>, { id }: { id: string }) {
  const { db, principal, now } = ctx;
  const { value: found, db: source } = await readFresh(ctx, (db) => findQuote(db, id, { byRequestToo: true }));
  const notFound = `No quote or quote request ${id}.`;
  if (!found) throw new ServiceError('not_found', notFound);
  const stored = found.intent;
  const assignment = found.receipt?.experiment ?? null;
  const trace = await readTraceOf(source, stored, { userId: principal.userId, experimentId: assignment?.experimentId ?? null });
  // Who may see it and how long its workspace shows requests are decided on the primary: read
  // with the trace when it came from there, again when it came from a replica.
  const [access, requestShownSince] =
    source === db
      ? [toBusinessAccess(trace.access), shownSinceBy(trace.retention, [stored.workspaceId], now).get(stored.workspaceId) ?? null]
      : await Promise.all([
          stored.businessId !== null ? businessAccess(db, principal, stored.businessId) : null,
          shownSinceOfWorkspace(db, stored.workspaceId, now),
        ]);
  // The members of the quote's business trace their own quotes; workspace members trace any.
  if (!access?.membership) {
    // The workspace membership was read with the business's when it is the quote's workspace too.
    if (access?.business.workspaceId !== stored.workspaceId) await requireWorkspaceMember(db, principal, stored.workspaceId, undefined, notFound);
    else if (!access.workspaceMember) throw new ServiceError('not_found', notFound);
  }
  const { version, book, environment, experiment, events } = trace;
  const request = trace.request && (requestShownSince === null || trace.request.createdAt >= requestShownSince) ? trace.request : null;
  return {
    ...toQuoteResult(asOf(found.intent, now), found.receipt),
    businessId: stored.businessId,
    environment: environment!.kind,
    book: book!,
    bookVersion: version,
    experiment: assignment && { id: assignment.experimentId, name: experiment?.name ?? null, arm: assignment.arm, bucket: assignment.bucket, buckets: ASSIGNMENT_BUCKETS },
    request: request
      ? {
          requestId: request.requestId,
          method: request.method,
          path: request.path,
          status: request.status,
          principal: request.principal,
          apiKeyId: request.apiKeyId,
          latencyMs: request.latencyMs,
          createdAt: request.createdAt.toISOString(),
        }
      : null,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      createdAt: e.createdAt.toISOString(),
      deliveries: e.deliveries.map(({ endpoint, ...d }) => ({
        ...d,
        endpointUrl: endpoint.url,
        endpointDeleted: endpoint.deletedAt !== null,
        nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
        createdAt: d.createdAt.toISOString(),
      })),
    })),
  };
}
