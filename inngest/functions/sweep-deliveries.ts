import { systemContext } from '../../lib/context/verb-context';
import { forwardDeliveries } from '../../lib/webhooks/forward-deliveries';
import { dispatchOutboxEvents } from '../../lib/webhooks/dispatch-outbox';
import { inngest } from '../client';
import { productionDeps, type FunctionDeps } from './deps';

/**
 * The backstop each minute: fans out any event written without its deliveries (an older
 * version during a rolling update), then hands Inngest every pending delivery it has not
 * acknowledged yet (it was unreachable when the write happened) or whose run was lost.
 */
export function createSweepDeliveries(deps: FunctionDeps = productionDeps) {
  return inngest.createFunction({ id: 'sweep-webhook-deliveries', triggers: [{ cron: '* * * * *' }] }, async ({ step }) => {
    const ctx = () => systemContext(deps.db(), 'sweep-webhook-deliveries', deps.clock());
    const dispatched = await step.run('dispatch-outbox', () => dispatchOutboxEvents(ctx()));
    const forwarded = await step.run('forward-deliveries', () => forwardDeliveries(ctx(), { send: deps.send }));
    return { ...dispatched, ...forwarded };
  });
}

export const sweepDeliveries = createSweepDeliveries();
