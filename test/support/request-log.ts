import { processState } from '../../lib/process/state';
import { testDb } from '../../lib/testing/factories';

/**
 * The request log is written in batches off the request path (lib/requestlog/request-log-writer.ts).
 * In process, a test writes what this process's writer holds, then reads: no wait on its timer.
 */
export async function flushRequestLog(): Promise<void> {
  await processState.requestLogWriter?.flush();
}

/** The request log's row of a request this process answered. */
export async function loggedRequest(requestId: string) {
  await flushRequestLog();
  return testDb().requestLog.findFirstOrThrow({ where: { requestId } });
}
