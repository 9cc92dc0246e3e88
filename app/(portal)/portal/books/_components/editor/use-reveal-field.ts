'use client';

import { useEffect, useRef, useState } from 'react';

/**
 * A field of the forms to bring into view and focus (a problem's, a new rule's). Asking for the
 * same field again counts; a card may open first, so the field may take a frame or two to appear.
 * Each request is carried out once: coming back to the forms from the JSON view does not take
 * the focus back to a field revealed earlier (it once took the person's next typing with it).
 */
export function useRevealField(formsShown: boolean) {
  const [revealing, setRevealing] = useState<{ path: string; n: number } | null>(null);
  const done = useRef<typeof revealing>(null);
  useEffect(() => {
    if (!formsShown || revealing === null || done.current === revealing) return;
    // The field itself, or the nearest enclosing part that has a control.
    const segments = revealing.path.split('.');
    let frames = 0;
    let handle = 0;
    const attempt = () => {
      const exact = document.querySelector<HTMLElement>(`[data-path="${CSS.escape(revealing.path)}"]`);
      if (!exact && frames++ < 10) {
        handle = requestAnimationFrame(attempt);
        return;
      }
      for (let n = segments.length; n > 0; n--) {
        const element = document.querySelector<HTMLElement>(`[data-path="${CSS.escape(segments.slice(0, n).join('.'))}"]`);
        if (!element) continue;
        element.scrollIntoView({ block: 'center' });
        const focusable = element.matches('input, select, textarea') ? element : element.querySelector<HTMLElement>('input, select, textarea');
        focusable?.focus({ preventScroll: true });
        done.current = revealing;
        return;
      }
      done.current = revealing; // nothing there to reveal
    };
    attempt();
    return () => cancelAnimationFrame(handle);
  }, [revealing, formsShown]);
  return {
    revealedPath: revealing?.path ?? null,
    revealField: (path: string) => setRevealing({ path, n: Date.now() }),
  };
}
