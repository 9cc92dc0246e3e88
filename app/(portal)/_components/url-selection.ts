'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';

/**
 * Which of `ids` the URL's `?<param>=` names (the first id when it names none), and a way to
 * change it. The choice lives in the URL so it survives a reload and can be linked to.
 * Callers must sit inside a <Suspense> boundary (useSearchParams).
 */
export function useUrlSelection(param: string, ids: readonly string[]) {
  const searchParams = useSearchParams();
  const setParam = useSetSearchParam();
  const requested = searchParams.get(param);
  const known = requested !== null && ids.includes(requested);
  return {
    selectedId: known ? requested : (ids[0] ?? null),
    /** The URL named something this person cannot see (or that does not exist). */
    requestedUnknown: requested !== null && !known,
    select(id: string) {
      setParam(param, id);
    },
  };
}

/**
 * Sets (or, given an empty value, removes) one search parameter of the current URL, keeping the
 * others, without scrolling or adding a history entry.
 */
export function useSetSearchParam() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  return (param: string, value: string) => {
    const next = new URLSearchParams(searchParams.toString());
    if (value) next.set(param, value);
    else next.delete(param);
    router.replace(`${pathname}?${next.toString()}`, { scroll: false });
  };
}
