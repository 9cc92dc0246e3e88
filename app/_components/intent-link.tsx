'use client';

import Link from 'next/link';
import { useState, type ComponentProps } from 'react';

/**
 * Our links between pages. Next's `<Link>` prefetches every page whose link comes into view: on
 * the portal that was the navigation's dozen pages and each listed row's page, some 25–40
 * requests a page view, each a server render and a session read, and the whole set again
 * whenever the URL's business changed; the home page fetched the API reference's page and its
 * 186 KB stylesheet (Swagger UI's) with it.
 * Here a page is prefetched when the person reaches for its link (the pointer on it, a finger on
 * it, keyboard focus): a click is still a client-side navigation, and most often its page is
 * already on the way. Next's documented hover pattern
 * (node_modules/next/dist/docs/01-app/02-guides/prefetching.md), with touch and focus as well.
 */
export function IntentLink({ prefetch, onMouseEnter, onTouchStart, onFocus, ...props }: ComponentProps<typeof Link>) {
  const [reachedFor, setReachedFor] = useState(false);
  return (
    <Link
      {...props}
      // `null` is Next's default prefetch, once the person shows intent.
      prefetch={reachedFor ? (prefetch ?? null) : false}
      onMouseEnter={(event) => {
        setReachedFor(true);
        onMouseEnter?.(event);
      }}
      onTouchStart={(event) => {
        setReachedFor(true);
        onTouchStart?.(event);
      }}
      onFocus={(event) => {
        setReachedFor(true);
        onFocus?.(event);
      }}
    />
  );
}
