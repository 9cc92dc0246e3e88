'use client';

import { IntentLink } from '../../_components/intent-link';
import type { ReactNode } from 'react';
import { AskAnAdmin } from './ask-an-admin';
import { usePageAccess, type PortalPage } from './portal-access';
import { Loading } from './ui';

/**
 * A page someone opened without the right to use it (a link, a bookmark): says what it needs
 * and who can help, instead of an empty search or an error.
 */
export function RequiresAccess({ page, needs, children }: { page: PortalPage; needs: string; children: ReactNode }) {
  const access = usePageAccess();
  if (!access) return <Loading what="your permissions" />;
  if (access[page] !== null) return children;
  return (
    <p className="notice" role="status" data-testid="needs-access">
      {needs} <AskAnAdmin /> <IntentLink href="/portal">Back to the overview</IntentLink>
    </p>
  );
}
