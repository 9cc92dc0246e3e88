'use client';

import { useEffect, useRef, type RefObject } from 'react';
import type { JsonEditorHandle } from './json-view';

type Shortcuts = { undo: () => void; redo: () => void; save: () => void };

/**
 * Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z and Ctrl/⌘+Y redo, Ctrl/⌘+S saves, wherever the focus is on
 * the page (after a dialog it may be on the body). A dialog keeps its own keys; the JSON text its
 * own undo and redo.
 */
export function useEditorShortcuts(enabled: boolean, actions: Shortcuts, jsonEditor: RefObject<JsonEditorHandle | null>) {
  const current = useRef(actions);
  current.current = actions;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if ((event.target as Element | null)?.closest?.('dialog')) return;
      const key = event.key.toLowerCase();
      const act = key === 'z' ? (event.shiftKey ? 'redo' : 'undo') : key === 'y' ? 'redo' : key === 's' ? 'save' : null;
      if (!act || (act !== 'save' && jsonEditor.current?.contains(event.target))) return;
      event.preventDefault();
      current.current[act]();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled, jsonEditor]);
}
