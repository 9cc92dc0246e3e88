import type { VerbContext } from '../context/verb-context';
import { sqlRows } from '../db/sql';
import { DEFAULT_PUBLISH_GUARD, type PublishGuard } from './impact-schemas';

/**
 * The publishing safeguard of a project's books: the settings of the businesses it serves
 * (active connections), the strictest of them when there are several, the defaults when none.
 */
export async function readPublishGuard({ db }: VerbContext, { projectId }: { projectId: string }): Promise<PublishGuard> {
  const [row] = await sqlRows<{ changePercent: number | null; sharePercent: number | null }>(
    db,
    `SELECT min(b.publish_guard_change_percent) AS "changePercent", min(b.publish_guard_share_percent) AS "sharePercent"
       FROM connections c JOIN businesses b ON b.id = c.business_id
      WHERE c.project_id = $1::uuid AND c.status = 'active'`,
    [projectId],
  );
  return {
    changePercent: row?.changePercent ?? DEFAULT_PUBLISH_GUARD.changePercent,
    sharePercent: row?.sharePercent ?? DEFAULT_PUBLISH_GUARD.sharePercent,
  };
}
