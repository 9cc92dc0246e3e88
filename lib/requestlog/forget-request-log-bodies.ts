import type { VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';

/** How long the request log keeps bodies; the rows themselves stay. */
export const REQUEST_BODY_RETENTION_DAYS = 30;
/** Rows cleared per pass: a backlog is worked off a minute at a time, never in one long statement. */
const BATCH = 5_000;

/** Part of the minute job: forgets the bodies of requests older than the retention. */
export async function forgetRequestLogBodies({ db, now }: VerbContext): Promise<number> {
  const cutoff = new Date(now.getTime() - REQUEST_BODY_RETENTION_DAYS * 86_400_000);
  const rows = await sqlRows<{ id: bigint }>(
    db,
    `UPDATE request_logs SET request_body = NULL, response_body = NULL
      WHERE id IN (SELECT id FROM request_logs
                    WHERE (request_body IS NOT NULL OR response_body IS NOT NULL) AND created_at < $1::timestamptz
                    LIMIT $2::int)
      RETURNING id`,
    [cutoff, BATCH],
  );
  return rows.length;
}
