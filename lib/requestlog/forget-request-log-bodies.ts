import type { VerbContext } from '../context/verb-context';
import { forgetBodiesBefore } from './store';

/** How long the request log keeps bodies; the rows themselves stay. */
export const REQUEST_BODY_RETENTION_DAYS = 30;
/** Rows cleared per pass: a backlog is worked off a minute at a time, never in one long statement. */
const BATCH = 5_000;

/** Part of the minute job: forgets the bodies of requests older than the retention. */
export async function forgetRequestLogBodies({ db, now }: VerbContext): Promise<number> {
  return forgetBodiesBefore(db, new Date(now.getTime() - REQUEST_BODY_RETENTION_DAYS * 86_400_000), BATCH);
}
