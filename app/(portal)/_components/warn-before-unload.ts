'use client';

import { useEffect } from 'react';

/**
 * While `active`, closing or reloading the tab asks first (the browser words the question).
 * Links inside the portal are not intercepted: the App Router offers no way to hold a navigation.
 */
export function useWarnBeforeUnload(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
}
