'use client';

import dynamic from 'next/dynamic';
import { useEffect, useId, useMemo, useReducer, useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import { adminWords } from '../../../../_components/admin-words';
import { useWorkspaceAdmins } from '../../../../_components/ask-an-admin';
import { Loading } from '../../../../_components/ui';
import { useWarnBeforeUnload } from '../../../../_components/warn-before-unload';
import type { Book } from '../../_lib/book-edits';
import { historyReducer, startHistory } from '../../_lib/draft-history';
import { isJsonObject } from '../../_lib/json-source';
import { ruleUsage } from '../../_lib/live-check';
import { CreateVersion } from '../create-version';
import { ImpactPanel } from '../impact/impact-panel';
import { EditorToolbar } from './editor-toolbar';
import { DraftForms, FormsCannotShow } from './draft-forms';
import { DraftMessages } from './draft-messages';
import type { Issues } from './fields';
import { LivePreview } from './live-preview';
import { RemovalDialog } from './removal-dialog';
import { useBookEdits } from './use-book-edits';
import { useDraftCheck } from './use-draft-check';
import { useDraftSaving } from './use-draft-saving';
import { useEditorShortcuts } from './use-editor-shortcuts';
import { useFormChoices } from './use-form-choices';
import { useJsonView } from './use-json-view';
import { usePreviewExamples } from './use-preview-examples';
import { useRevealField } from './use-reveal-field';
import styles from './editor.module.css';

// CodeMirror is most of the book page's JavaScript and only the JSON view uses it: it loads after
// the page (fetched once the editor is up, so that switching views does not wait for it).
const loadJsonView = () => import('./json-view').then((m) => m.JsonView);
const JsonView = dynamic(loadJsonView, { ssr: false, loading: () => <Loading what="the JSON editor" /> });

/** Above this many offerings, questions and rules, cards far from the screen are not drawn. */
const LARGE_BOOK_CARDS = 80;

/** Issues grouped by entity (`rules.3`), each with a key that changes only when its issues do. */
function indexIssues(issues: Issues) {
  const groups = new Map<string, Issues>();
  for (const [path, messages] of Object.entries(issues)) {
    const [collection, index] = path.split('.');
    const key = index !== undefined && /^\d+$/.test(index) ? `${collection}.${index}` : collection;
    const group = groups.get(key) ?? {};
    group[path] = messages;
    groups.set(key, group);
  }
  const keys = new Map([...groups].map(([prefix, group]) => [prefix, JSON.stringify(group)]));
  return (prefix: string) => ({ issues: groups.get(prefix), key: keys.get(prefix) ?? '' });
}

/**
 * The price-book editor: the draft in forms or as JSON (the same draft, use-json-view.ts), undo
 * and redo, saving, its problems as it is typed, a live preview of example prices
 * (use-preview-examples.ts), and turning it into a version. The forms are draft-forms.tsx, their
 * edits use-book-edits.ts; saving is use-draft-saving.ts.
 */
export function BookEditor({ bookId, initialDraft, hasSavedDraft, sourceNote, canEdit, canPublish }: {
  bookId: string;
  initialDraft: unknown;
  hasSavedDraft: boolean;
  sourceNote: string;
  canEdit: boolean;
  canPublish: boolean;
}) {
  const id = useId();
  useEffect(() => void loadJsonView(), []); // the JSON view's code, fetched while the person reads the forms
  const [history, dispatch] = useReducer(historyReducer<unknown>, initialDraft, startHistory);
  const draft = history.present;
  const [notice, setNotice] = useState<string | null>(null);

  const json = useJsonView(draft, (value) => dispatch({ type: 'edit', update: () => value, group: 'json', now: Date.now() }));
  const saving = useDraftSaving(bookId, { initialDraft, hasSavedDraft, draft, jsonBroken: json.broken });
  useWarnBeforeUnload(saving.unsaved);

  const preview = usePreviewExamples(initialDraft, draft);
  // Problems and prices are worked out off the page's thread (use-draft-check.ts), for this draft
  // or, while typing, one a few keystrokes older.
  const check = useDraftCheck(draft, preview.examples);
  const checked = check.checked;
  const issueCount = Object.values(check.issues).flat().length;
  const outcomes = check.outcomes;
  const usage = useMemo(() => ruleUsage(outcomes.filter((o) => o !== undefined)), [outcomes]);
  const activeOutcome = outcomes[Math.min(preview.active, outcomes.length - 1)];

  const edits = useBookEdits({ draft, dispatch, checked, shapeIssues: check.shapeIssues, formsShown: json.view === 'form' });
  const { formBook } = edits;
  const choices = useFormChoices(formBook);
  const { revealedPath, revealField } = useRevealField(json.view === 'form');
  const issuesOf = useMemo(() => indexIssues(check.issues), [check.issues]);
  const reveal = (path: string) => (json.view === 'json' ? json.revealPath(path) : revealField(path));

  const undo = () => dispatch({ type: 'undo' });
  const redo = () => dispatch({ type: 'redo' });
  useEditorShortcuts(canEdit, { undo, redo, save: saving.save }, json.editorRef);

  const askAnAdmin = adminWords(useWorkspaceAdmins());
  const blockedBecause = versionBlockedBecause({ canPublish, askAnAdmin, savedOnce: saving.savedOnce, unsaved: saving.unsaved, issueCount });
  const priced = check.prices && isJsonObject(checked) ? checked : null;

  const cards = formBook ? formBook.offerings.length + (formBook.factors?.length ?? 0) + (formBook.rules?.length ?? 0) : 0;
  return (
    <section aria-labelledby={`${id}-heading`} className={cards > LARGE_BOOK_CARDS ? styles.large : undefined}>
      <h2 id={`${id}-heading`}>Draft</h2>
      {!canEdit && (
        <p className={`notice ${styles.readOnly}`} role="status">
          You can read this book and try prices in the preview. Changing it is for workspace members allowed to edit price books. {askAnAdmin}
        </p>
      )}
      <p className="muted">{sourceNote}</p>
      <EditorToolbar
        view={json.view}
        onView={json.switchView}
        jsonBroken={json.broken}
        canEdit={canEdit}
        canUndo={history.past.length > 0}
        canRedo={history.future.length > 0}
        onUndo={undo}
        onRedo={redo}
        onSave={saving.save}
        saving={saving.saving}
        unsaved={saving.unsaved}
        savedOnce={saving.savedOnce}
        problems={issueCount}
        problemsHref={`#${id}-problems`}
        exampleTotal={activeOutcome?.outcome === 'succeeded' ? formatMoney(activeOutcome.computation.totalMinor, activeOutcome.computation.currency) : null}
      />
      <DraftMessages
        saveError={saving.error}
        saveNote={saving.note}
        notice={notice}
        onNoticeRead={() => setNotice(null)}
        problemsId={`${id}-problems`}
        issues={check.issues}
        artifact={checked}
        onReveal={reveal}
      />
      <div className={styles.layout}>
        <div>
          {json.parsed ? (
            <JsonView
              text={json.text}
              parsed={json.parsed}
              onText={json.onText}
              editorRef={json.editorRef}
              disabled={!canEdit}
              onRevealOffset={(offset) => json.editorRef.current?.reveal({ start: offset, end: offset + 1 })}
            />
          ) : formBook === null ? (
            <FormsCannotShow
              issues={check.shapeIssues}
              artifact={checked}
              onOpenJson={() => json.switchView('json')}
              onReveal={(path) => {
                json.switchView('json');
                setTimeout(() => reveal(path));
              }}
            />
          ) : (
            <DraftForms
              book={formBook}
              edits={edits}
              choices={choices}
              cardList={{ issuesOf, revealedPath, disabled: !canEdit }}
              issues={check.issues}
              usage={usage}
              examples={outcomes.filter((o) => o !== undefined).length}
              onNotice={setNotice}
              onRevealField={revealField}
            />
          )}
          <CreateVersion bookId={bookId} blockedBecause={blockedBecause} artifact={checked} onRevealPath={reveal} />
        </div>
        <aside className={styles.preview} id="live-preview" tabIndex={-1} aria-label="Live preview">
          <a href={`#${id}-heading`} className={styles.toPreview}>
            ↑ Back to editing
          </a>
          <LivePreview
            offerings={preview.offerings}
            priced={priced as unknown as Book | null}
            examples={preview.examples}
            outcomes={outcomes}
            active={Math.min(preview.active, Math.max(0, preview.examples.length - 1))}
            onActive={preview.setActive}
            onExamples={preview.setExamples}
            pending={check.pending}
            problems={issueCount}
          />
        </aside>
      </div>
      <ImpactPanel
        bookId={bookId}
        artifact={priced}
        checking={checked !== draft}
        problems={issueCount}
        canPublish={canPublish}
        offerings={choices.offeringChoices}
        factors={choices.factorChoices}
      />
      <RemovalDialog pending={edits.removal.pending} onConfirm={(result) => edits.removal.confirm(result.book)} onCancel={edits.removal.cancel} />
    </section>
  );
}

/** Why the saved draft cannot become a version yet, in the words the person needs; null when it can. */
function versionBlockedBecause({ canPublish, askAnAdmin, savedOnce, unsaved, issueCount }: {
  canPublish: boolean;
  askAnAdmin: string;
  savedOnce: boolean;
  unsaved: boolean;
  issueCount: number;
}): string | null {
  if (!canPublish) return `Creating versions is for workspace members allowed to publish price books. ${askAnAdmin}`;
  if (!savedOnce) return 'Save the draft first: versions are made from the saved draft.';
  if (unsaved) return 'Save your changes first: versions are made from the saved draft.';
  if (issueCount > 0) return 'Fix the problems listed above first.';
  return null;
}
