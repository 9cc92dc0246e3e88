'use client';

import { useIsFetching } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * The page's region, busy while what it shows is being read (assistive technology waits for it to
 * settle before reading it out; the browser tests wait on the same signal). The menu's inbox,
 * asked again every minute, is outside it.
 */
export function PortalMain({ children }: { children: ReactNode }) {
  const fetching = useIsFetching({ predicate: (query) => query.queryKey[0] !== 'inbox' });
  return (
    <main className="main" aria-busy={fetching > 0}>
      {children}
    </main>
  );
}
