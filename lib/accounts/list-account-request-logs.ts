import type { ApiKeyPrincipal } from '../auth/principal';
import { readDbOf, type VerbContext } from '../context/verb-context';
import { timeIdPage } from '../db/cursors';
import { shownSinceOfWorkspace } from '../requestlog/retention';
import { findRequestLogsOfEnvironment } from '../requestlog/store';

/**
 * GET /v1/accounts/{id}/request-logs: this account's requests in the key's environment, within
 * its workspace's retention (read from the primary), the rows from the read replica when there is one.
 */
export async function listAccountRequestLogs(ctx: VerbContext<ApiKeyPrincipal>, input: { limit: number; cursor?: string }) {
  const { principal } = ctx;
  const shownSince = await shownSinceOfWorkspace(ctx.db, principal.workspaceId, ctx.now);
  const rows = await findRequestLogsOfEnvironment(readDbOf(ctx), { ...principal, shownSince }, { cursor: input.cursor, take: input.limit + 1 });
  const { page, nextCursor } = timeIdPage(rows, input.limit);
  return {
    object: 'list' as const,
    data: page.map((r) => ({
      request_id: r.requestId,
      method: r.method,
      path: r.path,
      status: r.status,
      error_code: r.errorCode,
      api_key_id: r.apiKeyId,
      latency_ms: r.latencyMs,
      created: r.createdAt.toISOString(),
    })),
    has_more: rows.length > input.limit,
    next_cursor: nextCursor,
  };
}
