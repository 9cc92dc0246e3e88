'use client';

import { AskAnAdmin } from '../../../_components/ask-an-admin';
import { AskAnOwner } from '../../../_components/ask-an-owner';
import { selfRun } from '../../../_components/portal-access';
import type { Business } from '../../../_components/queries';

/**
 * Why the person can look but not change a business setting (branding, the publishing
 * safeguard), and whom to ask: on a self-run business its owner, else the workspace admins
 * (spec 4.2: `businesses:manage`, or a Business Owner on a Direct connection).
 */
export function WhoCanChange({ business, what, id }: { business: Business; what: string; id?: string }) {
  return (
    <p className="notice" id={id}>
      {selfRun(business) ? (
        <>
          You can look but not change: the {what} of a self-run business is set by its owner, or by workspace members allowed to manage businesses.{' '}
          <AskAnOwner business={business} />
        </>
      ) : (
        <>
          You can look but not change: the {what} of a business {business.connection?.kind === 'managed' ? 'that its workspace runs for it' : 'that is not self-run'} is set by
          workspace members allowed to manage businesses. <AskAnAdmin workspaceId={business.workspaceId} />
        </>
      )}
    </p>
  );
}
