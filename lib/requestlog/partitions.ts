import type { VerbContext } from '../context/verb-context';
import {
  countDefaultPartitionRows,
  createDayPartition,
  dropDayPartition,
  listDayPartitions,
  PARTITIONED,
  partitionName,
  type PartitionedTable,
} from './store';
import { partitionKeepDays, requestLogRetentionDays } from './retention';

const DAY_MS = 86_400_000;
/** Days made ahead: a week of minute jobs may fail before a row lands in a default partition. */
export const PARTITION_DAYS_AHEAD = 7;
/** How long the request log keeps bodies: their days are dropped after this; the rows stay. */
export const REQUEST_BODY_RETENTION_DAYS = 30;

/**
 * Part of the minute job, for the rows and for their bodies: makes the partitions of today and
 * the next PARTITION_DAYS_AHEAD days, drops the days older than the retention (whole
 * partitions, never row by row: rows after `retentionDays` or the longest a workspace set,
 * bodies after 30), and raises an
 * alarm when rows landed in a default partition (no day partition was there for them).
 * Returns how many partitions it made or dropped.
 */
export async function maintainRequestLogPartitions(ctx: VerbContext, retentionDays = requestLogRetentionDays()): Promise<number> {
  // A workspace may keep its log longer than the service's default: days go when no one keeps them.
  const keepDays = await partitionKeepDays(ctx.db, retentionDays);
  return (await maintain(ctx, PARTITIONED.rows, keepDays)) + (await maintain(ctx, PARTITIONED.bodies, Math.min(REQUEST_BODY_RETENTION_DAYS, keepDays)));
}

async function maintain({ db, now, log }: VerbContext, of: PartitionedTable, keepDays: number): Promise<number> {
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const existing = new Set(await listDayPartitions(db, of));
  let changed = 0;
  for (let i = 0; i <= PARTITION_DAYS_AHEAD; i++) {
    const day = new Date(today.getTime() + i * DAY_MS);
    if (existing.has(partitionName(day, of))) continue;
    try {
      await createDayPartition(db, day, of);
      changed++;
    } catch (error) {
      // Another process made it at the same moment; otherwise the default partition already
      // holds rows of that day, which must be moved by hand first (docs/operations.md).
      if (!(await listDayPartitions(db, of)).includes(partitionName(day, of))) {
        log.error({ err: error, table: of.table, day: day.toISOString().slice(0, 10) }, 'request log partition could not be made');
      }
    }
  }
  const oldestKept = partitionName(new Date(today.getTime() - keepDays * DAY_MS), of);
  for (const name of existing) {
    if (name < oldestKept) {
      await dropDayPartition(db, name);
      changed++;
    }
  }
  const strays = await countDefaultPartitionRows(db, of);
  if (strays > 0) log.error({ rows: strays === 1000 ? 'at least 1000' : strays, table: of.table }, 'request log rows in the default partition: a day partition was missing when they were written (docs/operations.md)');
  return changed;
}
