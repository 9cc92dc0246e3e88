'use client';

import { useId, type RefObject } from 'react';
import { ErrorMessage } from '../../../_components/ui';
import type { ReadJsonResult } from '../_lib/json-source';
import { useSaveDraft, type SaveDraftResult } from './book-queries';
import styles from './books.module.css';
import { IssueList } from './issue-list';

export type SavedDraft = { text: string; result: SaveDraftResult };

type DraftEditorProps = {
  bookId: string;
  text: string;
  parsed: ReadJsonResult;
  onTextChange: (text: string) => void;
  editorRef: RefObject<HTMLTextAreaElement | null>;
  /** Where the text came from, in words ("the saved draft", "version 3"). */
  sourceNote: string;
  /** The text as last saved on the server; null when there is no saved draft. */
  savedText: string | null;
  lastSave: SavedDraft | null;
  onSaved: (saved: SavedDraft) => void;
  onRevealPath: (path: string) => void;
  onRevealOffset: (offset: number) => void;
  canEdit: boolean;
};

export function DraftEditor(props: DraftEditorProps) {
  const { bookId, text, parsed, editorRef, lastSave, canEdit } = props;
  const saveDraft = useSaveDraft(bookId);
  const id = useId();
  const isObject = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value);
  const unsaved = props.savedText !== text;

  const save = () => {
    if (!parsed.ok) return props.onRevealOffset(parsed.error.offset);
    if (!isObject) return;
    const textAtSave = text;
    saveDraft.mutate(parsed.value as Record<string, unknown>, {
      onSuccess: (result) => props.onSaved({ text: textAtSave, result }),
    });
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        Draft {unsaved && <span className="badge test">unsaved changes</span>}
      </h2>
      <p className="muted" id={`${id}-source`}>
        {props.sourceNote} Amounts are in the currency’s minor units (cents for USD: 12000 = 120.00; none for JPY) and percentages in basis points (1500 = 15%).
      </p>
      <label htmlFor={`${id}-editor`}>Price book (JSON)</label>
      <textarea
        id={`${id}-editor`}
        ref={editorRef}
        className={styles.editor}
        value={text}
        onChange={(e) => props.onTextChange(e.target.value)}
        spellCheck={false}
        wrap="off"
        readOnly={!canEdit}
        aria-describedby={`${id}-source`}
        aria-invalid={!parsed.ok}
      />
      {!parsed.ok ? (
        <div role="alert" style={{ marginTop: '0.5rem' }}>
          <button type="button" className={styles.issue} onClick={() => props.onRevealOffset(parsed.error.offset)}>
            <code>
              Line {parsed.error.line}, column {parsed.error.column}
            </code>
            : this is not valid JSON — {parsed.error.message}.
          </button>
        </div>
      ) : (
        !isObject && (
          <p className="error" role="alert">
            A price book is a JSON object: it starts with {'{'} and ends with {'}'}.
          </p>
        )
      )}
      <div className="row" style={{ marginTop: '0.75rem' }}>
        <button type="button" className="primary" onClick={save} disabled={!canEdit || saveDraft.isPending}>
          {saveDraft.isPending ? 'Saving…' : 'Save draft'}
        </button>
        {!canEdit && <span className="muted">Editing needs the books:edit permission.</span>}
      </div>
      {saveDraft.isError && <ErrorMessage error={saveDraft.error} />}
      {lastSave && <SaveOutcome saved={lastSave} stale={unsaved} parsed={parsed} onRevealPath={props.onRevealPath} />}
    </section>
  );
}

function SaveOutcome({
  saved,
  stale,
  parsed,
  onRevealPath,
}: {
  saved: SavedDraft;
  stale: boolean;
  parsed: ReadJsonResult;
  onRevealPath: (path: string) => void;
}) {
  const count = Object.values(saved.result.issues).flat().length;
  if (saved.result.valid) {
    return (
      <p className="notice" role="status" style={{ marginTop: '0.75rem' }}>
        Draft saved{stale ? ' (you have changed it since)' : ''}. It has no problems, so it can become a version.
      </p>
    );
  }
  return (
    <div className="warning" role="status" style={{ marginTop: '0.75rem' }}>
      <strong>
        Draft saved as work in progress{stale ? ' (you have changed it since)' : ''}, but {count === 1 ? '1 problem stops' : `${count} problems stop`} it
        from becoming a version.
      </strong>{' '}
      Select a problem to find it in the editor.
      <IssueList issues={saved.result.issues} artifact={parsed.ok ? parsed.value : null} onReveal={onRevealPath} label="Problems in the draft" />
    </div>
  );
}
