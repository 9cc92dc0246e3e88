'use client';

import type { EditorView } from './use-json-view';
import styles from './editor.module.css';

/** The draft's toolbar: forms or JSON, undo, redo and save, whether it is saved, its problems and the example's price. */
export function EditorToolbar({ view, onView, jsonBroken, canEdit, canUndo, canRedo, onUndo, onRedo, onSave, saving, unsaved, savedOnce, problems, problemsHref, exampleTotal }: {
  view: EditorView;
  onView: (view: EditorView) => void;
  jsonBroken: boolean;
  canEdit: boolean;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onSave: () => void;
  saving: boolean;
  unsaved: boolean;
  savedOnce: boolean;
  problems: number;
  problemsHref: string;
  exampleTotal: string | null;
}) {
  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Draft">
      <span className={styles.tabs} role="group" aria-label="View">
        <button type="button" aria-pressed={view === 'form'} onClick={() => onView('form')} disabled={view === 'json' && jsonBroken} title={jsonBroken ? 'Fix the JSON first' : undefined}>
          Forms
        </button>
        <button type="button" aria-pressed={view === 'json'} onClick={() => onView('json')}>
          JSON
        </button>
      </span>
      {canEdit && (
        <>
          <button type="button" onClick={onUndo} disabled={!canUndo} aria-keyshortcuts="Control+Z">
            Undo
          </button>
          <button type="button" onClick={onRedo} disabled={!canRedo} aria-keyshortcuts="Control+Shift+Z">
            Redo
          </button>
          <button type="button" className="primary" onClick={onSave} disabled={saving || jsonBroken || !unsaved} aria-keyshortcuts="Control+S">
            {saving ? 'Saving…' : 'Save draft'}
          </button>
        </>
      )}
      {/* Saving is an editor's business: a reader is not told about drafts they cannot save. */}
      <span role="status" data-testid="save-state" hidden={!canEdit}>
        {unsaved ? (
          <span className="badge test">Unsaved changes</span>
        ) : savedOnce ? (
          <span className="badge ok">Saved</span>
        ) : (
          <span className="badge">No draft saved yet</span>
        )}
      </span>
      {problems > 0 && (
        <a href={problemsHref} className="badge danger" data-testid="problem-count">
          {problems === 1 ? '1 problem' : `${problems} problems`}
        </a>
      )}
      <span className={styles.livePrice} aria-live="polite" data-testid="toolbar-price">
        {exampleTotal ? (
          <>
            Example: <strong>{exampleTotal}</strong>
          </>
        ) : null}
      </span>
      {/* Below the editor on a narrow screen, the preview is one tap away from wherever the person is. */}
      <a href="#live-preview" className={styles.toPreview}>
        Preview ↓
      </a>
    </div>
  );
}
