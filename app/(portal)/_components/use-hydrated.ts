'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React hydrates the server's HTML, true from then on. A Suspense boundary hydrates
 * after the navigation, by which time a query it reads may have answered: rendering that data
 * instead of the loading state the server sent is a hydration mismatch (React #418). Parts inside
 * a boundary show their loading state until hydrated, as the server did.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
