'use client';

import { useEffect, useRef, useState } from 'react';
import { isJsonObject, locateJsonPath, readJson } from '../../_lib/json-source';
import { toReadableJson } from '../../_lib/readable-json';
import type { JsonEditorHandle } from './json-view';

export type EditorView = 'form' | 'json';

/**
 * Forms or JSON: the same draft. The JSON text is what the person types (read once per change,
 * a big book is 200 KB of it); a text that reads as an object is the draft, and the text follows
 * the draft when undo, redo or a save changes it.
 */
export function useJsonView(draft: unknown, onDraft: (value: Record<string, unknown>) => void) {
  const [view, setView] = useState<EditorView>('form');
  const [text, setText] = useState('');
  const lastJsonDraft = useRef<unknown>(undefined);
  const lastRead = useRef<{ text: string; result: ReturnType<typeof readJson> } | null>(null);
  const read = (source: string) => {
    if (lastRead.current?.text !== source) lastRead.current = { text: source, result: readJson(source) };
    return lastRead.current.result;
  };
  const parsed = view === 'json' ? read(text) : null;
  const broken = parsed !== null && (!parsed.ok || !isJsonObject(parsed.value));
  const editorRef = useRef<JsonEditorHandle>(null);

  const switchView = (next: EditorView) => {
    if (next === view) return;
    if (next === 'json') {
      lastJsonDraft.current = draft;
      setText(toReadableJson(draft));
    }
    setView(next);
  };
  // Synchronous on purpose: the text area keeps its own text (json-view.tsx), and the text
  // state must never lag behind it, or the text area would be set back to an older text.
  const onText = (next: string) => {
    setText(next);
    const result = read(next);
    if (result.ok && isJsonObject(result.value)) {
      lastJsonDraft.current = result.value;
      onDraft(result.value);
    }
  };
  // Undo, redo or a save while the JSON shows: the text follows the draft.
  useEffect(() => {
    if (view === 'json' && draft !== lastJsonDraft.current) {
      lastJsonDraft.current = draft;
      setText(toReadableJson(draft));
    }
  }, [view, draft]);

  /** Selects the part of the text a draft path names. */
  const revealPath = (path: string) => {
    const result = read(text);
    if (result.ok) editorRef.current?.reveal(locateJsonPath(result.root, path));
  };

  return { view, switchView, text, parsed, broken, onText, editorRef, revealPath };
}
