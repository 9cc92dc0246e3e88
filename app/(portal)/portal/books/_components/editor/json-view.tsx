'use client';

import { useEffect, useId, type RefObject } from 'react';
import type { ReadJsonResult } from '../../_lib/json-source';
import bookStyles from '../books.module.css';
import styles from './editor.module.css';

/** The same draft as JSON, for those who prefer it: edits here are edits of the draft. */
export function JsonView({ text, parsed, onText, editorRef, disabled, onRevealOffset }: {
  text: string;
  parsed: ReadJsonResult;
  onText: (text: string) => void;
  editorRef: RefObject<HTMLTextAreaElement | null>;
  disabled: boolean;
  onRevealOffset: (offset: number) => void;
}) {
  const id = useId();
  // Uncontrolled: React would otherwise rewrite the textarea's default text (the whole book) on
  // every keystroke. The text is set here only when it changes from outside (undo, redo, a save).
  useEffect(() => {
    const editor = editorRef.current;
    if (editor && editor.value !== text) editor.value = text;
  }, [text, editorRef]);
  const isObject = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value);
  return (
    <div>
      <label htmlFor={`${id}-editor`}>Price book (JSON)</label>
      <p className="muted" id={`${id}-note`} style={{ marginTop: 0 }}>
        Amounts are in the currency’s minor units (cents for USD: 12000 = 120.00; none for JPY) and percentages in basis points (1500 = 15%).
        docs/price-book.md describes every field.
      </p>
      <textarea
        id={`${id}-editor`}
        ref={editorRef}
        className={styles.jsonEditor}
        defaultValue={text}
        onChange={(e) => onText(e.target.value)}
        spellCheck={false}
        wrap="off"
        readOnly={disabled}
        aria-describedby={`${id}-note`}
        aria-invalid={!parsed.ok || !isObject || undefined}
      />
      {!parsed.ok ? (
        <div role="alert" style={{ marginTop: '0.5rem' }}>
          <button type="button" className={bookStyles.issue} onClick={() => onRevealOffset(parsed.error.offset)}>
            <code>
              Line {parsed.error.line}, column {parsed.error.column}
            </code>
            : this is not valid JSON — {parsed.error.message}. Fix it to see the forms and the preview again.
          </button>
        </div>
      ) : (
        !isObject && (
          <p className="error" role="alert">
            A price book is a JSON object: it starts with {'{'} and ends with {'}'}.
          </p>
        )
      )}
    </div>
  );
}
