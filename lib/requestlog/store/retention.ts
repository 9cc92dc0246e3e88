import { activeWorkspaceIdsSql } from '../../auth/store';
import type { DbOrTx } from '../../db/client';
import { sqlRows } from '../../db/sql';

// ---------------------------------------------------------------------------------------------
// Retention (lib/requestlog/retention.ts): how long each workspace's log is shown

/**
 * From when each workspace's rows are shown, by workspace id; null when every row still on disk
 * is shown (no condition, so the query is what it is without retention: a time bound on every
 * day partition's indexes costs the planner milliseconds).
 */
export type ShownSince = Map<string, Date | null>;

/** The workspaces' own retention settings (null: the service's default), and the longest any workspace set. */
export type RetentionSettings = { settings: Map<string, number | null>; longest: number | null };

/** The settings of the workspaces `workspaces` (SQL: a condition on `w.id`) and the longest any workspace set. */
const retentionSettingsOf = (workspaces: string) => `SELECT w.id::text AS id, w.request_log_retention_days AS days,
    (SELECT max(request_log_retention_days) FROM workspaces) AS longest
  FROM workspaces w WHERE ${workspaces}`;
const RETENTION_SETTINGS = retentionSettingsOf('w.id = ANY($1::uuid[])');
// The readable workspaces and their settings in one statement: who may search and how far back.
const READABLE_RETENTION_SETTINGS = retentionSettingsOf(`w.id IN (${activeWorkspaceIdsSql('$1::uuid', "'logs:read'::text")})`);

async function readRetentionSettings(db: DbOrTx, text: string, value: unknown): Promise<RetentionSettings> {
  const rows = await sqlRows<{ id: string; days: number | null; longest: number | null }>(db, text, [value]);
  return { settings: new Map(rows.map((r) => [r.id, r.days])), longest: rows[0]?.longest ?? null };
}

/** The workspaces' own retention settings (null: the service's default), and the longest any workspace set. */
export async function findRetentionSettings(db: DbOrTx, workspaceIds: string[]): Promise<RetentionSettings> {
  return readRetentionSettings(db, RETENTION_SETTINGS, workspaceIds);
}

/** The retention settings of the workspaces where the person holds `logs:read` (none: no such workspace). */
export async function findReadableRetentionSettings(db: DbOrTx, userId: string): Promise<RetentionSettings> {
  return readRetentionSettings(db, READABLE_RETENTION_SETTINGS, userId);
}

/** One workspace's `RetentionSettings` (SQL) as one JSON value `{ days, longest }`: a statement that reads the workspace anyway embeds it. */
export function retentionSettingsJson(workspaceId: string): string {
  return `(SELECT json_build_object('days', w.request_log_retention_days, 'longest', (SELECT max(request_log_retention_days) FROM workspaces))
    FROM workspaces w WHERE w.id = ${workspaceId})`;
}

/** The longest retention any workspace set, or null when none did. */
export async function findLongestRetentionSetting(db: DbOrTx): Promise<number | null> {
  const { _max } = await db.workspace.aggregate({ _max: { requestLogRetentionDays: true } });
  return _max.requestLogRetentionDays;
}

/** Sets (or, with null, clears) a workspace's retention. */
export async function updateRetentionSetting(db: DbOrTx, workspaceId: string, days: number | null): Promise<void> {
  await db.workspace.update({ where: { id: workspaceId }, data: { requestLogRetentionDays: days } });
}
