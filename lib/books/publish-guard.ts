import type { VerbContext } from '../context/verb-context';
import { DEFAULT_PUBLISH_GUARD, type PublishGuard } from './impact-schemas';
import { strictestPublishGuard } from './store';

/**
 * The publishing safeguard of a project's books: the settings of the businesses it serves
 * (active connections), the strictest of them when there are several, the defaults when none.
 */
export async function readPublishGuard({ db }: VerbContext, { projectId }: { projectId: string }): Promise<PublishGuard> {
  const row = await strictestPublishGuard(db, projectId);
  return {
    changePercent: row?.changePercent ?? DEFAULT_PUBLISH_GUARD.changePercent,
    sharePercent: row?.sharePercent ?? DEFAULT_PUBLISH_GUARD.sharePercent,
  };
}
