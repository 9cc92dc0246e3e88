import type { ApiKeyPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { timeIdPage } from '../db/cursors';
import { shownSinceOf } from '../requestlog/retention';
import { findRequestLogsOfEnvironment } from '../requestlog/store';

/** GET /v1/accounts/{id}/request-logs: this account's requests in the key's environment, within its workspace's retention. */
export async function listAccountRequestLogs({ db, principal, now }: VerbContext<ApiKeyPrincipal>, input: { limit: number; cursor?: string }) {
  const shownSince = (await shownSinceOf(db, [principal.workspaceId], now)).get(principal.workspaceId)!;
  const rows = await findRequestLogsOfEnvironment(db, { ...principal, shownSince }, { cursor: input.cursor, take: input.limit + 1 });
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
