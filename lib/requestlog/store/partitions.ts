import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';

// ---------------------------------------------------------------------------------------------
// Partitions (one per UTC day, in the schema request_log_partitions; lib/requestlog/partitions.ts)

export const PARTITION_SCHEMA = 'request_log_partitions';

/** The day-partitioned tables: the rows (`dYYYYMMDD`) and their bodies (`bYYYYMMDD`). */
export const PARTITIONED = {
  rows: { table: 'request_logs', prefix: 'd', defaultPartition: 'request_logs_default' },
  bodies: { table: 'request_log_bodies', prefix: 'b', defaultPartition: 'request_log_bodies_default' },
} as const;
export type PartitionedTable = (typeof PARTITIONED)[keyof typeof PARTITIONED];

/** `dYYYYMMDD` (or the bodies' `bYYYYMMDD`): the partition of a UTC day. */
export function partitionName(day: Date, of: PartitionedTable = PARTITIONED.rows): string {
  return `${of.prefix}${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The day partitions of the table that exist, by name (the default partition left out). */
export async function listDayPartitions(db: DbOrTx, of: PartitionedTable = PARTITIONED.rows): Promise<string[]> {
  const rows = await sqlRows<{ name: string }>(
    db,
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE i.inhparent = ('public.' || $2::text)::regclass AND n.nspname = $1::text AND c.relname ~ ('^' || $3::text || '[0-9]{8}$')`,
    [PARTITION_SCHEMA, of.table, of.prefix],
  );
  return rows.map((r) => r.name);
}

/** Makes the table's partition of the UTC day that starts at `day` (names and bounds are ours: no user input). */
export async function createDayPartition(db: DbOrTx, day: Date, of: PartitionedTable = PARTITIONED.rows): Promise<void> {
  const next = new Date(day.getTime() + 86_400_000);
  await sqlRows(
    db,
    `CREATE TABLE IF NOT EXISTS ${PARTITION_SCHEMA}.${partitionName(day, of)} PARTITION OF ${of.table}
     FOR VALUES FROM ('${day.toISOString()}') TO ('${next.toISOString()}')`,
    [],
  );
}

/** Drops a day partition with its rows: retention, a whole day at once. */
export async function dropDayPartition(db: DbOrTx, name: string): Promise<void> {
  if (!/^[db][0-9]{8}$/.test(name)) throw new Error(`not a day partition: ${name}`);
  await sqlRows(db, `DROP TABLE IF EXISTS ${PARTITION_SCHEMA}.${name}`, []);
}

/**
 * Rows no day partition of the table held (they landed in its default partition), counted up to
 * 1,000: the minute job asks every minute, and a pile of strays must not make it a full scan.
 */
export async function countDefaultPartitionRows(db: DbOrTx, of: PartitionedTable = PARTITIONED.rows): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(db, `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${PARTITION_SCHEMA}.${of.defaultPartition} LIMIT 1000) strays`, []);
  return row.n;
}
