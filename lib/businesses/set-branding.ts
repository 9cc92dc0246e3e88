import type { BusinessAccess } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { recordEvent } from '../events/record-event';
import { toBusinessView } from './business-view';
import type { Branding } from './schemas';
import { updateBranding } from './store';

/**
 * Sets the business's branding (the route has checked requireBusinessDuty); the hosted quote
 * page shows it from the next request on.
 */
export async function setBranding(ctx: VerbContext<SessionPrincipal>, { access, branding }: { access: BusinessAccess; branding: Branding }) {
  const { principal, now } = ctx;
  const businessId = access.business.id;
  return withTransaction(ctx, async ({ db: tx }) => {
    const view = toBusinessView(await updateBranding(tx, businessId, branding, now));
    await recordEvent(
      { db: tx, now },
      {
        type: 'business.branding_updated',
        workspaceId: access.business.workspaceId,
        projectId: access.connection?.projectId,
        // Business events belong to the Live environment, where business routes quote.
        environmentId: access.connection?.liveEnvironmentId,
        businessId,
        subjectId: businessId,
        data: { businessId, branding: view.branding, changedBy: principal.userId },
      },
    );
    return view;
  });
}
