'use client';

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useId, useRef, type RefObject } from 'react';
import { isJsonObject, type ReadJsonResult } from '../../_lib/json-source';
import bookStyles from '../books.module.css';
import styles from './editor.module.css';

/** What the editor page does with the JSON text: select a place in it and bring it into view. */
export type JsonEditorHandle = {
  reveal: (range: { start: number; end: number }) => void;
  /** Whether a key press happened in the JSON text (it keeps its own undo and redo). */
  contains: (target: EventTarget | null) => boolean;
};

const theme = EditorView.theme({
  '&': { height: '36rem', border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: 'var(--card)', fontSize: '0.85rem' },
  '&.cm-focused': { outline: '2px solid #2563eb', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', lineHeight: '1.45' },
  '.cm-gutters': { background: '#f8fafc', color: '#64748b', borderRight: '1px solid var(--line)' },
});

/**
 * The same draft as JSON, for those who prefer it: edits here are edits of the draft. CodeMirror
 * draws only the lines on screen, so typing stays quick in a book of thousands of lines (a text
 * area re-lays out the whole text on every keystroke).
 */
export function JsonView({ text, parsed, onText, editorRef, disabled, onRevealOffset }: {
  text: string;
  parsed: ReadJsonResult;
  onText: (text: string) => void;
  editorRef: RefObject<JsonEditorHandle | null>;
  disabled: boolean;
  onRevealOffset: (offset: number) => void;
}) {
  const id = useId();
  const invalid = !parsed.ok || !isJsonObject(parsed.value);
  const container = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onTextRef = useRef(onText);
  onTextRef.current = onText;
  const settings = useRef(new Compartment());

  useEffect(() => {
    const view = new EditorView({
      parent: container.current!,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          bracketMatching(),
          json(),
          syntaxHighlighting(defaultHighlightStyle),
          // Tab is left to move the focus on: the editor is not a keyboard trap.
          keymap.of([...defaultKeymap, ...historyKeymap]),
          theme,
          settings.current.of([]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onTextRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    viewRef.current = view;
    editorRef.current = {
      reveal: ({ start, end }) => {
        const length = view.state.doc.length;
        const anchor = Math.min(start, length);
        view.dispatch({ selection: { anchor, head: Math.min(end, length) }, effects: EditorView.scrollIntoView(anchor, { y: 'start', yMargin: 48 }) });
        view.focus();
        view.dom.scrollIntoView({ block: 'nearest' });
      },
      contains: (target) => target instanceof Node && view.dom.contains(target),
    };
    return () => {
      view.destroy();
      viewRef.current = null;
      editorRef.current = null;
    };
    // Made once: its text and settings follow in the effects below.
  }, []);

  // Read-only, labels and validity, as the page says.
  useEffect(() => {
    viewRef.current?.dispatch({
      effects: settings.current.reconfigure([
        EditorState.readOnly.of(disabled),
        EditorView.contentAttributes.of({
          'aria-labelledby': `${id}-label`,
          'aria-describedby': `${id}-note`,
          'aria-multiline': 'true',
          // Already a tab stop (it is editable); said outright so that checkers see the scrolling area can take the focus.
          tabindex: '0',
          ...(invalid ? { 'aria-invalid': 'true' } : {}),
          ...(disabled ? { 'aria-readonly': 'true' } : {}),
        }),
      ]),
    });
  }, [disabled, invalid, id]);

  // A text from outside (undo or redo from the toolbar, a save): the editor shows it. Typed text
  // is already there (the page's text follows the editor synchronously).
  useEffect(() => {
    const view = viewRef.current;
    if (view && view.state.doc.toString() !== text) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  }, [text]);

  return (
    <div>
      <span id={`${id}-label`} style={{ fontWeight: 600, fontSize: '0.9rem' }}>
        Price book (JSON)
      </span>
      <p className="muted" id={`${id}-note`} style={{ marginTop: 0 }}>
        Amounts are in the currency’s minor units (cents for USD: 12000 = 120.00; none for JPY) and percentages in basis points (1500 = 15%).
        docs/price-book.md describes every field.
      </p>
      <div ref={container} className={styles.jsonEditor} data-testid="json-editor" />
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
        !isJsonObject(parsed.value) && (
          <p className="error" role="alert">
            A price book is a JSON object: it starts with {'{'} and ends with {'}'}.
          </p>
        )
      )}
    </div>
  );
}
