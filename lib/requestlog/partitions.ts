import type { VerbContext } from '../context/verb-context';
import { countDefaultPartitionRows, createDayPartition, dropDayPartition, listDayPartitions, partitionName } from './store';

const DAY_MS = 86_400_000;
/** Days made ahead: a week of minute jobs may fail before a row lands in the default partition. */
export const PARTITION_DAYS_AHEAD = 7;
/** How long the request log keeps its rows (REQUEST_LOG_RETENTION_DAYS, default 90): older days are dropped whole. */
export function requestLogRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = (env.REQUEST_LOG_RETENTION_DAYS ?? '').trim();
  const days = raw === '' ? 90 : Number(raw);
  if (!Number.isInteger(days) || days < 31 || days > 3650) throw new Error(`REQUEST_LOG_RETENTION_DAYS must be a whole number of days from 31 to 3650, not ${JSON.stringify(raw)}`);
  return days;
}

/**
 * Part of the minute job: makes the partitions of today and the next PARTITION_DAYS_AHEAD days,
 * drops the days older than the retention (whole partitions, never row by row), and raises an
 * alarm when rows landed in the default partition (no day partition was there for them).
 * Returns how many partitions it made or dropped.
 */
export async function maintainRequestLogPartitions({ db, now, log }: VerbContext, retentionDays = requestLogRetentionDays()): Promise<number> {
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const existing = new Set(await listDayPartitions(db));
  let changed = 0;
  for (let i = 0; i <= PARTITION_DAYS_AHEAD; i++) {
    const day = new Date(today.getTime() + i * DAY_MS);
    if (existing.has(partitionName(day))) continue;
    try {
      await createDayPartition(db, day);
      changed++;
    } catch (error) {
      // Another process made it at the same moment; otherwise the default partition already
      // holds rows of that day, which must be moved by hand first.
      if (!(await listDayPartitions(db)).includes(partitionName(day))) {
        log.error({ err: error, day: day.toISOString().slice(0, 10) }, 'request log partition could not be made');
      }
    }
  }
  const oldestKept = partitionName(new Date(today.getTime() - retentionDays * DAY_MS));
  for (const name of existing) {
    if (name < oldestKept) {
      await dropDayPartition(db, name);
      changed++;
    }
  }
  const strays = await countDefaultPartitionRows(db);
  if (strays > 0) log.error({ rows: strays }, 'request log rows in the default partition: a day partition was missing when they were written (docs/operations.md)');
  return changed;
}
