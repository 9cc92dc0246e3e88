import type { SessionPrincipal } from '../auth/principal';
import { permissionNowhere, requireWorkspaceMember } from '../auth/permissions';
import { holdsEveryPermission } from '../auth/workspace-permissions';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { findLongestRetentionSetting, findReadableRetentionSettings, findRetentionSettings, updateRetentionSetting, type RetentionSettings, type ShownSince } from './store';
import { settings } from '../settings/settings';

const DAY_MS = 86_400_000;

/** How long the request log keeps its rows (REQUEST_LOG_RETENTION_DAYS, default 90): older days are dropped whole. */
export function requestLogRetentionDays(): number {
  return settings().REQUEST_LOG_RETENTION_DAYS;
}

/**
 * How long a workspace's request log is kept is a setting of the workspace (PATCH
 * /v1/workspaces/{id}), or the service's REQUEST_LOG_RETENTION_DAYS when it has none. The rows
 * of every workspace share day partitions, which are dropped whole, never row by row: a day is
 * dropped once the longest retention (of any workspace, or the service's) is past, and until
 * then a workspace that keeps fewer days never sees the older rows again: no search, lookup,
 * account listing or trace shows them.
 */
export type RequestLogRetention = { days: number; setByWorkspace: boolean };

/** The retention a workspace's setting gives (null: the service's default). */
export function retentionOf(setting: number | null, defaultDays = requestLogRetentionDays()): RequestLogRetention {
  return setting === null ? { days: defaultDays, setByWorkspace: false } : { days: setting, setByWorkspace: true };
}

/** The first instant still shown at `now` after `days` days: the start of that UTC day, as partitions are kept by whole days. */
export function firstShownInstant(now: Date, days: number): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - days * DAY_MS);
}

/**
 * From when each workspace's rows are shown at `now`: null for a workspace that shows all that
 * is on disk (it keeps its log as long as the longest retention, by which days are dropped).
 */
export async function shownSinceOf(db: DbOrTx, workspaceIds: string[], now: Date): Promise<ShownSince> {
  return shownSinceBy(await findRetentionSettings(db, workspaceIds), workspaceIds, now);
}

/**
 * The workspaces where the person holds `logs:read`, each with the instant from which it shows
 * its rows (null: all on disk), in one read of the primary; 403 `forbidden` when there is none
 * (a search is refused, never empty).
 */
export async function readableShownSince(db: DbOrTx, principal: SessionPrincipal, now: Date): Promise<ShownSince> {
  const retention = await findReadableRetentionSettings(db, principal.userId);
  const workspaceIds = [...retention.settings.keys()];
  if (workspaceIds.length === 0) throw permissionNowhere('logs:read');
  return shownSinceBy(retention, workspaceIds, now);
}

/** `shownSinceOf` for settings already read (within another statement, by `retentionSettingsJson`). */
export function shownSinceBy({ settings, longest }: RetentionSettings, workspaceIds: string[], now: Date): ShownSince {
  const defaultDays = requestLogRetentionDays();
  const keptDays = Math.max(defaultDays, longest ?? 0);
  return new Map(
    workspaceIds.map((id) => {
      const { days } = retentionOf(settings.get(id) ?? null, defaultDays);
      return [id, days >= keptDays ? null : firstShownInstant(now, days)];
    }),
  );
}

/** From when one workspace's rows are shown at `now` (null: all that is on disk). */
export async function shownSinceOfWorkspace(db: DbOrTx, workspaceId: string, now: Date): Promise<Date | null> {
  return (await shownSinceOf(db, [workspaceId], now)).get(workspaceId) ?? null;
}

/** How many days of partitions the minute job keeps: the longest retention of any workspace, and at least the service's. */
export async function partitionKeepDays(db: DbOrTx, defaultDays = requestLogRetentionDays()): Promise<number> {
  return Math.max(defaultDays, (await findLongestRetentionSetting(db)) ?? 0);
}

/**
 * Who may change how long a workspace's request log is kept: a workspace admin (every workspace
 * permission), as it decides what the others can still look up. 404 for a non-member, 403 for a
 * member who is not an admin (checked before the body is read).
 */
export async function requireRetentionChanger({ db, principal }: VerbContext<SessionPrincipal>, workspaceId: string): Promise<void> {
  const { permissions } = await requireWorkspaceMember(db, principal, workspaceId, undefined, 'No such workspace.');
  if (!holdsEveryPermission(permissions)) {
    throw new ServiceError('forbidden', 'Only a workspace admin (every workspace permission) may change how long the request log is kept.');
  }
}

/** PATCH /v1/workspaces/{workspaceId}: sets how many days the workspace's request log is kept (null: the service's default). */
export async function setRequestLogRetention(
  { db }: VerbContext,
  { workspaceId, days }: { workspaceId: string; days: number | null },
): Promise<{ id: string; requestLogRetention: RequestLogRetention }> {
  await updateRetentionSetting(db, workspaceId, days);
  return { id: workspaceId, requestLogRetention: retentionOf(days) };
}
