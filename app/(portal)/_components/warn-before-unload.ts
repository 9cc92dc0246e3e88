'use client';

import { useEffect } from 'react';

/**
 * While `active`, leaving the page asks first: closing or reloading the tab (the browser words
 * that question), and following a link to another page of the portal (`question`). The App
 * Router cannot hold a navigation once it starts, so a link's click is caught before it does.
 */
export function useWarnBeforeUnload(active: boolean, question = 'You have unsaved changes. Leave this page and lose them?'): void {
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || event.defaultPrevented) return;
      const to = new URL(link.href, window.location.href);
      if (to.origin !== window.location.origin || to.pathname === window.location.pathname) return;
      if (window.confirm(question)) return;
      // Before React sees the click: next/link never starts the navigation.
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', ask);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', ask);
      document.removeEventListener('click', onClick, true);
    };
  }, [active, question]);
}
