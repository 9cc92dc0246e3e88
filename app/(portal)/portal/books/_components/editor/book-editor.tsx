'use client';

import { dequal } from 'dequal/lite';
import dynamic from 'next/dynamic';
import { useEffect, useId, useMemo, useReducer, useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import { ErrorMessage, Loading } from '../../../../_components/ui';
import { useWarnBeforeUnload } from '../../../../_components/warn-before-unload';
import { addFactor, addOffering, addRule, changeCurrency, type Book } from '../../_lib/book-edits';
import type { Autonomy } from '../../_lib/book-form';
import { historyReducer, startHistory } from '../../_lib/draft-history';
import { isJsonObject } from '../../_lib/json-source';
import { ruleUsage } from '../../_lib/live-check';
import { useSaveDraft } from '../book-queries';
import { CreateVersion } from '../create-version';
import { IssueList } from '../issue-list';
import { ImpactPanel } from '../impact/impact-panel';
import { EditorToolbar } from './editor-toolbar';
import { FactorsSection } from './factors-section';
import type { CardListProps, Issues } from './fields';
import { LivePreview } from './live-preview';
import { OfferingsSection } from './offerings-section';
import { RemovalDialog } from './removal-dialog';
import { RulesSection } from './rules-section';
import { SettingsSection } from './settings-section';
import { useBookEdits } from './use-book-edits';
import { useDraftCheck } from './use-draft-check';
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
import { adminWords } from '../../../../_components/admin-words';
import { useWorkspaceAdmins } from '../../../../_components/ask-an-admin';

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
 * (use-preview-examples.ts), and turning it into a version. The forms' edits are in use-book-edits.ts.
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
  // What "unsaved" compares with: the saved draft, or what the editor started from.
  const [baseline, setBaseline] = useState<unknown>(initialDraft);
  const [savedOnce, setSavedOnce] = useState(hasSavedDraft);
  const [saveNote, setSaveNote] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const saveDraft = useSaveDraft(bookId);

  const json = useJsonView(draft, (value) => dispatch({ type: 'edit', update: () => value, group: 'json', now: Date.now() }));
  // Unsaved means different from the saved draft, not edited: typing a letter and deleting it
  // leaves nothing to save. Edits share what they leave unchanged, so this compares little.
  const unsaved = json.broken || !dequal(draft, baseline);
  useWarnBeforeUnload(unsaved);

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
  const { formBook, current, editBook } = edits;
  const choices = useFormChoices(formBook);
  const { revealedPath, revealField } = useRevealField(json.view === 'form');
  const issuesOf = useMemo(() => indexIssues(check.issues), [check.issues]);
  const cardList: CardListProps = { issuesOf, revealedPath, disabled: !canEdit };
  const reveal = (path: string) => (json.view === 'json' ? json.revealPath(path) : revealField(path));

  const save = () => {
    if (!isJsonObject(draft) || json.broken) return;
    const atSave = draft;
    saveDraft.mutate(atSave, {
      onSuccess: (result) => {
        setBaseline(atSave);
        setSavedOnce(true);
        setSaveNote(result.valid ? 'Draft saved. It has no problems, so it can become a version.' : 'Draft saved as work in progress: the problems listed above stop it from becoming a version.');
      },
    });
  };
  const undo = () => dispatch({ type: 'undo' });
  const redo = () => dispatch({ type: 'redo' });
  useEditorShortcuts(canEdit, { undo, redo, save }, json.editorRef);

  const askAnAdmin = adminWords(useWorkspaceAdmins());
  const blockedBecause = !canPublish
    ? `Creating versions is for workspace members allowed to publish price books. ${askAnAdmin}`
    : !savedOnce
      ? 'Save the draft first: versions are made from the saved draft.'
      : unsaved
        ? 'Save your changes first: versions are made from the saved draft.'
        : issueCount > 0
          ? 'Fix the problems listed above first.'
          : null;
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
        onSave={save}
        saving={saveDraft.isPending}
        unsaved={unsaved}
        savedOnce={savedOnce}
        problems={issueCount}
        problemsHref={`#${id}-problems`}
        exampleTotal={activeOutcome?.outcome === 'succeeded' ? formatMoney(activeOutcome.computation.totalMinor, activeOutcome.computation.currency) : null}
      />
      {saveDraft.isError && <ErrorMessage error={saveDraft.error} />}
      {saveNote && !unsaved && (
        <p className="notice" role="status">
          {saveNote}
        </p>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}{' '}
          <button type="button" onClick={() => setNotice(null)}>
            OK
          </button>
        </p>
      )}
      {issueCount > 0 && (
        <details className="warning" id={`${id}-problems`} open={issueCount <= 5} style={{ marginBottom: '1rem' }}>
          <summary>
            <strong>{issueCount === 1 ? '1 problem stops' : `${issueCount} problems stop`} this draft from becoming a version</strong> (you can still save it as work in progress).
            Select one to go to it.
          </summary>
          <IssueList issues={check.issues} artifact={checked} onReveal={reveal} label="Problems in the draft" />
        </details>
      )}
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
            <div className="warning">
              <p style={{ marginTop: 0 }}>
                <strong>The forms cannot show this draft</strong>: some fields have a type or shape the forms do not know. Fix them in the JSON view; nothing
                else is lost.
              </p>
              <IssueList issues={check.shapeIssues} artifact={checked} onReveal={(path) => { json.switchView('json'); setTimeout(() => reveal(path)); }} label="Fields the forms cannot show" />
              <button type="button" onClick={() => json.switchView('json')}>
                Open the JSON view
              </button>
            </div>
          ) : (
            <>
              <SettingsSection
                currency={formBook.currency}
                autonomy={(formBook.autonomy ?? 'autonomous') as Autonomy}
                quoteValidityDays={formBook.quoteValidityDays}
                conditions={formBook.conditions ?? []}
                issues={check.issues}
                disabled={!canEdit}
                onCurrency={(currency) => {
                  const result = changeCurrency(current(), currency);
                  editBook(() => result.book);
                  setNotice(
                    `Prices are now in ${currency} and kept their values${result.rounded > 0 ? `; ${result.rounded === 1 ? '1 amount was' : `${result.rounded} amounts were`} rounded, as ${currency} has fewer decimals` : ''}. Undo brings the old currency back.`,
                  );
                }}
                onAutonomy={(autonomy) => editBook((b) => ({ ...b, autonomy }))}
                onQuoteValidityDays={(quoteValidityDays) => editBook((b) => ({ ...b, quoteValidityDays }), 'quoteValidityDays')}
                onConditions={(conditions) => editBook((b) => ({ ...b, conditions }), 'conditions')}
              />
              <OfferingsSection
                {...cardList}
                {...edits.offerings}
                offerings={formBook.offerings}
                currency={formBook.currency}
                factors={choices.factorChoices}
                onAdd={(label) => editBook((b) => addOffering(b, label))}
              />
              <FactorsSection {...cardList} {...edits.factors} factors={formBook.factors ?? []} onAdd={(label) => editBook((b) => addFactor(b, label))} />
              <RulesSection
                {...cardList}
                {...edits.rules}
                rules={formBook.rules ?? []}
                sentences={choices.sentences}
                usage={usage}
                examples={outcomes.filter((o) => o !== undefined).length}
                currency={formBook.currency}
                offerings={choices.offeringChoices}
                factors={choices.factorOptionChoices}
                onAdd={(phase) => {
                  const added = addRule(current(), phase);
                  editBook(() => added.book);
                  revealField(`rules.${added.index}.label`);
                }}
              />
            </>
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
        problems={issueCount}
        canPublish={canPublish}
        offerings={choices.offeringChoices}
        factors={choices.factorChoices}
      />
      <RemovalDialog pending={edits.removal.pending} onConfirm={(result) => edits.removal.confirm(result.book)} onCancel={edits.removal.cancel} />
    </section>
  );
}
