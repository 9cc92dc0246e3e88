import { getDb, type Db } from '../../lib/db/client';
import { inngest } from '../client';
import type { SendToInngest } from '../../lib/webhooks/forward-deliveries';

/** What the functions reach outside Inngest: the database, the clock, Inngest's event API. Tests pass their own. */
export type FunctionDeps = { db: () => Db; clock: () => Date; send: SendToInngest };

export const productionDeps: FunctionDeps = { db: getDb, clock: () => new Date(), send: (events) => inngest.send(events) };
