'use client';

import { dequal } from 'dequal/lite';
import { useCallback, useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { formatMoney } from '@/app/_components/receipt-view';
import { ErrorMessage } from '../../../../_components/ui';
import { useWarnBeforeUnload } from '../../../../_components/warn-before-unload';
import {
  addFactor,
  addOffering,
  addRule,
  changeCurrency,
  duplicateRule,
  moveFactor,
  moveOffering,
  moveRuleWithinPhase,
  nothingRefers,
  removeFactor,
  removeOffering,
  removeOption,
  removeRule,
  replaceFactor,
  replaceOffering,
  replaceRule,
  type Book,
} from '../../_lib/book-edits';
import { historyReducer, startHistory } from '../../_lib/draft-history';
import { locateJsonPath, readJson } from '../../_lib/json-source';
import { checkDraft, ruleUsage, type Example } from '../../_lib/live-check';
import { previewOfferings } from '../../_lib/preview-questions';
import { toReadableJson } from '../../_lib/readable-json';
import { labelsOf, ruleSentence, type Labels } from '../../_lib/rule-sentence';
import type { Autonomy, RuleInput } from '../../_lib/book-form';
import { useSaveDraft } from '../book-queries';
import { CreateVersion } from '../create-version';
import { IssueList } from '../issue-list';
import { ImpactPanel } from '../impact/impact-panel';
import { FactorsSection } from './factors-section';
import type { CardListProps, Issues } from './fields';
import { JsonView, type JsonEditorHandle } from './json-view';
import { firstExample, LivePreview } from './live-preview';
import { OfferingsSection } from './offerings-section';
import { RemovalDialog, type PendingRemoval } from './removal-dialog';
import { RulesSection } from './rules-section';
import { SettingsSection } from './settings-section';
import { useDraftCheck } from './use-draft-check';
import styles from './editor.module.css';

type View = 'form' | 'json';

/** Above this many offerings, questions and rules, cards far from the screen are not drawn. */
const LARGE_BOOK_CARDS = 80;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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
 * The price-book editor: the draft in forms or as JSON (the same draft), undo and redo, saving,
 * its problems as it is typed, a live preview of example prices, and turning it into a version.
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
  const [history, dispatch] = useReducer(historyReducer<unknown>, initialDraft, startHistory);
  const draft = history.present;
  // What "unsaved" compares with: the saved draft, or what the editor started from.
  const [baseline, setBaseline] = useState<unknown>(initialDraft);
  const [savedOnce, setSavedOnce] = useState(hasSavedDraft);
  const [saveNote, setSaveNote] = useState<string | null>(null);
  const saveDraft = useSaveDraft(bookId);

  const [view, setView] = useState<View>('form');
  const [jsonText, setJsonText] = useState('');
  const lastJsonDraft = useRef<unknown>(undefined);
  // The JSON text is read once per change (a big book is 200 KB of it).
  const lastRead = useRef<{ text: string; result: ReturnType<typeof readJson> } | null>(null);
  const read = (text: string) => {
    if (lastRead.current?.text !== text) lastRead.current = { text, result: readJson(text) };
    return lastRead.current.result;
  };
  const jsonParsed = view === 'json' ? read(jsonText) : null;
  const jsonBroken = jsonParsed !== null && (!jsonParsed.ok || !isObject(jsonParsed.value));
  const editorRef = useRef<JsonEditorHandle>(null);

  // Unsaved means different from the saved draft, not edited: typing a letter and deleting it
  // leaves nothing to save. Edits share what they leave unchanged, so this compares little.
  const unsaved = jsonBroken || !dequal(draft, baseline);
  useWarnBeforeUnload(unsaved);

  // The preview asks the questions of the draft being edited; its examples are priced with it.
  const draftOfferings = isObject(draft) ? draft.offerings : undefined;
  const draftFactors = isObject(draft) ? draft.factors : undefined;
  const offeringsForPreview = useMemo(() => previewOfferings({ offerings: draftOfferings, factors: draftFactors }), [draftOfferings, draftFactors]);
  const [examples, setExamples] = useState<Example[]>(() => {
    const first = firstExample(previewOfferings(initialDraft), 'example-1');
    return first ? [first] : [];
  });
  const [active, setActive] = useState(0);
  // An example whose offering went away prices the first offering instead.
  const shownExamples = useMemo(
    () =>
      (examples.length > 0 ? examples : [firstExample(offeringsForPreview, 'example-1')].filter((e): e is Example => e !== null)).map((e) =>
        offeringsForPreview.some((o) => o.id === e.offeringId) ? e : { ...e, offeringId: offeringsForPreview[0]?.id ?? e.offeringId },
      ),
    [examples, offeringsForPreview],
  );

  // Problems and prices are worked out off the page's thread (use-draft-check.ts), for this draft
  // or, while typing, one a few keystrokes older.
  const check = useDraftCheck(draft, shownExamples);
  const checked = check.checked;
  const issueCount = Object.values(check.issues).flat().length;
  const outcomes = check.outcomes;
  const usage = useMemo(() => ruleUsage(outcomes.filter((o) => o !== undefined)), [outcomes]);

  // Whether the forms can show a draft (right types and shapes), known for every draft they show:
  // a checked draft says it; a form edit of a showable draft is showable; anything else (the first
  // draft, a JSON edit) is checked on the spot.
  const showable = useRef(new WeakMap<object, boolean>());
  if (isObject(checked)) showable.current.set(checked, Object.keys(check.shapeIssues).length === 0);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const formBook: Book | null = (() => {
    if (view !== 'form' || !isObject(draft)) return null;
    let ok = showable.current.get(draft);
    if (ok === undefined) showable.current.set(draft, (ok = Object.keys(checkDraft(draft).shapeIssues).length === 0));
    return ok ? (draft as unknown as Book) : null;
  })();
  const activeOutcome = outcomes[Math.min(active, outcomes.length - 1)];

  const now = () => Date.now();
  const editBook = useCallback((update: (book: Book) => Book, group?: string) => {
    const edit = (present: unknown) => {
      const next = update(present as Book);
      // A form edit keeps a showable draft showable.
      if (isObject(present) && showable.current.get(present) && isObject(next)) showable.current.set(next, true);
      return next;
    };
    dispatch({ type: 'edit', update: edit, group, now: now() });
  }, []);

  // A field to bring into view and focus; `n` makes asking for the same field again count.
  const [revealing, setRevealing] = useState<{ path: string; n: number } | null>(null);
  const revealedPath = revealing?.path ?? null;
  const setRevealedPath = (path: string) => setRevealing({ path, n: Date.now() });
  const [pendingRemoval, setPendingRemoval] = useState<PendingRemoval | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // --- edits, stable for the memoised cards ---------------------------------------------------
  const onOffering = useCallback((index: number, offering: Book['offerings'][number], field: string) => editBook((b) => replaceOffering(b, index, offering), field), [editBook]);
  const onMoveOffering = useCallback((from: number, to: number) => editBook((b) => moveOffering(b, from, to)), [editBook]);
  const onFactor = useCallback((index: number, factor: NonNullable<Book['factors']>[number], field: string) => editBook((b) => replaceFactor(b, index, factor), field), [editBook]);
  const onMoveFactor = useCallback((from: number, to: number) => editBook((b) => moveFactor(b, from, to)), [editBook]);
  const onRule = useCallback((index: number, rule: RuleInput, field: string) => editBook((b) => replaceRule(b, index, rule), field), [editBook]);
  const onMoveRule = useCallback((index: number, direction: -1 | 1) => editBook((b) => moveRuleWithinPhase(b, index, direction)), [editBook]);
  const onDuplicateRule = useCallback((index: number) => editBook((b) => duplicateRule(b, index)), [editBook]);
  const onRemoveRule = useCallback((index: number) => editBook((b) => removeRule(b, index)), [editBook]);

  // Removals that something uses ask first, saying what happens to it (removal-dialog.tsx).
  const askOrRemove = useCallback(
    (pending: PendingRemoval) => {
      const exact = pending.preview('exact');
      if (nothingRefers(exact.removal)) editBook(() => exact.book);
      else setPendingRemoval(pending);
    },
    [editBook],
  );
  const current = () => draftRef.current as Book;
  const onRemoveOffering = useCallback(
    (index: number) => {
      const b = current();
      const offering = b.offerings[index];
      askOrRemove({
        what: `the offering “${offering.label}”`,
        book: b,
        preview: (choice) => removeOffering(b, offering.id, { removeEveryRule: choice === 'alternative' }),
        alternative: 'Also remove the rules that name it together with other offerings',
      });
    },
    [askOrRemove],
  );
  const onRemoveFactor = useCallback(
    (index: number) => {
      const b = current();
      const factor = b.factors![index];
      askOrRemove({
        what: `the question “${factor.label}”`,
        book: b,
        preview: (choice) => removeFactor(b, factor.id, { keepRulesWithoutIt: choice === 'alternative' }),
        alternative: `Keep those rules instead, without their condition on “${factor.label}” (they will apply more often)`,
      });
    },
    [askOrRemove],
  );
  const onRemoveOption = useCallback(
    (index: number, optionId: string) => {
      const b = current();
      const factor = b.factors![index];
      const option = factor.options.find((o) => o.id === optionId)!;
      askOrRemove({ what: `the answer “${option.label}” of “${factor.label}”`, book: b, preview: () => removeOption(b, factor.id, optionId) });
    },
    [askOrRemove],
  );

  // --- what the forms show --------------------------------------------------------------------
  const offeringsRef = formBook?.offerings;
  const factorsRef = formBook?.factors;
  // Labels change only with offerings and factors: typing in a rule keeps every other sentence.
  const labels: Labels | null = useMemo(() => (offeringsRef ? labelsOf({ offerings: offeringsRef, factors: factorsRef } as Book) : null), [offeringsRef, factorsRef]);
  const offeringChoices = useMemo(() => (offeringsRef ?? []).map((o) => ({ id: o.id, label: o.label || o.id })), [offeringsRef]);
  const factorChoices = useMemo(() => (factorsRef ?? []).map((f) => ({ id: f.id, label: f.label || f.id })), [factorsRef]);
  const factorOptionChoices = useMemo(
    () => (factorsRef ?? []).map((f) => ({ id: f.id, label: f.label || f.id, options: f.options.map((o) => ({ id: o.id, label: o.label || o.id })) })),
    [factorsRef],
  );
  const currency = formBook?.currency;
  const sentenceCache = useMemo(() => new WeakMap<RuleInput, string>(), [labels, currency]);
  const sentences = useMemo(
    () =>
      (formBook?.rules ?? []).map((rule) => {
        let sentence = sentenceCache.get(rule);
        if (sentence === undefined) sentenceCache.set(rule, (sentence = ruleSentence(rule, formBook!, labels!)));
        return sentence;
      }),
    [formBook, labels, sentenceCache],
  );
  const issuesOf = useMemo(() => indexIssues(check.issues), [check.issues]);
  const cardList: CardListProps = { issuesOf, revealedPath, disabled: !canEdit };

  // --- views ----------------------------------------------------------------------------------
  const switchView = (next: View) => {
    if (next === view) return;
    if (next === 'json') {
      lastJsonDraft.current = draft;
      setJsonText(toReadableJson(draft));
    }
    setView(next);
  };
  // Synchronous on purpose: the text area keeps its own text (json-view.tsx), and the text
  // state must never lag behind it, or the text area would be set back to an older text.
  const onJsonText = (text: string) => {
    setJsonText(text);
    const parsed = read(text);
    if (parsed.ok && isObject(parsed.value)) {
      lastJsonDraft.current = parsed.value;
      dispatch({ type: 'edit', update: () => parsed.value, group: 'json', now: now() });
    }
  };
  // Undo, redo or a save while the JSON shows: the text follows the draft.
  useEffect(() => {
    if (view === 'json' && draft !== lastJsonDraft.current) {
      lastJsonDraft.current = draft;
      setJsonText(toReadableJson(draft));
    }
  }, [view, draft]);

  const reveal = (path: string) => {
    if (view === 'json') {
      const parsed = read(jsonText);
      if (parsed.ok) editorRef.current?.reveal(locateJsonPath(parsed.root, path));
      return;
    }
    setRevealedPath(path);
  };
  useEffect(() => {
    if (view !== 'form' || revealing === null) return;
    // The field itself (a card may open first, so it may take a frame or two to appear), or the
    // nearest enclosing part that has a control.
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
        return;
      }
    };
    attempt();
    return () => cancelAnimationFrame(handle);
  }, [revealing, view]);

  const save = () => {
    if (!isObject(draft) || jsonBroken) return;
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
  // Shortcuts work wherever the focus is on the page (after a dialog, it may be on the body).
  const shortcuts = useRef({ undo, redo, save });
  shortcuts.current = { undo, redo, save };
  useEffect(() => {
    if (!canEdit) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      // A dialog keeps its own keys; the JSON text its own undo and redo (Ctrl+S saves from anywhere).
      if ((event.target as Element | null)?.closest?.('dialog')) return;
      const key = event.key.toLowerCase();
      const act = key === 'z' ? (event.shiftKey ? 'redo' : 'undo') : key === 'y' ? 'redo' : key === 's' ? 'save' : null;
      if (!act || (act !== 'save' && editorRef.current?.contains(event.target))) return;
      event.preventDefault();
      shortcuts.current[act]();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [canEdit]);

  const blockedBecause = !canPublish
    ? 'Creating versions needs the books:publish permission. Ask a workspace admin if you need it.'
    : !savedOnce
      ? 'Save the draft first: versions are made from the saved draft.'
      : unsaved
        ? 'Save your changes first: versions are made from the saved draft.'
        : issueCount > 0
          ? 'Fix the problems listed above first.'
          : null;

  const activeTotal =
    activeOutcome?.outcome === 'succeeded' ? formatMoney(activeOutcome.computation.totalMinor, activeOutcome.computation.currency) : null;

  const cards = formBook ? formBook.offerings.length + (formBook.factors?.length ?? 0) + (formBook.rules?.length ?? 0) : 0;
  return (
    <section aria-labelledby={`${id}-heading`} className={cards > LARGE_BOOK_CARDS ? styles.large : undefined}>
      <h2 id={`${id}-heading`}>Draft</h2>
      {!canEdit && (
        <p className={`notice ${styles.readOnly}`} role="status">
          You can read this book and try prices in the preview. Changing it needs the books:edit permission: ask a workspace admin if you need it.
        </p>
      )}
      <p className="muted">{sourceNote}</p>
      <div className={styles.toolbar} role="toolbar" aria-label="Draft">
        <span className={styles.tabs} role="group" aria-label="View">
          <button type="button" aria-pressed={view === 'form'} onClick={() => switchView('form')} disabled={view === 'json' && jsonBroken} title={jsonBroken ? 'Fix the JSON first' : undefined}>
            Forms
          </button>
          <button type="button" aria-pressed={view === 'json'} onClick={() => switchView('json')}>
            JSON
          </button>
        </span>
        {canEdit && (
          <>
            <button type="button" onClick={undo} disabled={history.past.length === 0} aria-keyshortcuts="Control+Z">
              Undo
            </button>
            <button type="button" onClick={redo} disabled={history.future.length === 0} aria-keyshortcuts="Control+Shift+Z">
              Redo
            </button>
            <button type="button" className="primary" onClick={save} disabled={saveDraft.isPending || jsonBroken || !unsaved} aria-keyshortcuts="Control+S">
              {saveDraft.isPending ? 'Saving…' : 'Save draft'}
            </button>
          </>
        )}
        <span role="status" data-testid="save-state">
          {unsaved ? (
            <span className="badge test">Unsaved changes</span>
          ) : savedOnce ? (
            <span className="badge ok">Saved</span>
          ) : (
            <span className="badge">No draft saved yet</span>
          )}
        </span>
        {issueCount > 0 && (
          <a href={`#${id}-problems`} className="badge danger" data-testid="problem-count">
            {issueCount === 1 ? '1 problem' : `${issueCount} problems`}
          </a>
        )}
        <span className={styles.livePrice} aria-live="polite" data-testid="toolbar-price">
          {activeTotal ? (
            <>
              Example: <strong>{activeTotal}</strong>
            </>
          ) : null}
        </span>
      </div>
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
          {view === 'json' ? (
            <JsonView
              text={jsonText}
              parsed={jsonParsed ?? read(jsonText)}
              onText={onJsonText}
              editorRef={editorRef}
              disabled={!canEdit}
              onRevealOffset={(offset) => editorRef.current?.reveal({ start: offset, end: offset + 1 })}
            />
          ) : formBook === null ? (
            <div className="warning">
              <p style={{ marginTop: 0 }}>
                <strong>The forms cannot show this draft</strong>: some fields have a type or shape the forms do not know. Fix them in the JSON view; nothing
                else is lost.
              </p>
              <IssueList issues={check.shapeIssues} artifact={checked} onReveal={(path) => { switchView('json'); setTimeout(() => reveal(path)); }} label="Fields the forms cannot show" />
              <button type="button" onClick={() => switchView('json')}>
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
                offerings={formBook.offerings}
                currency={formBook.currency}
                factors={factorChoices}
                onChange={onOffering}
                onMove={onMoveOffering}
                onRemove={onRemoveOffering}
                onAdd={(label) => editBook((b) => addOffering(b, label))}
              />
              <FactorsSection
                {...cardList}
                factors={formBook.factors ?? []}
                onChange={onFactor}
                onMove={onMoveFactor}
                onRemove={onRemoveFactor}
                onRemoveOption={onRemoveOption}
                onAdd={(label) => editBook((b) => addFactor(b, label))}
              />
              <RulesSection
                {...cardList}
                rules={formBook.rules ?? []}
                sentences={sentences}
                usage={usage}
                examples={outcomes.filter((o) => o !== undefined).length}
                currency={formBook.currency}
                offerings={offeringChoices}
                factors={factorOptionChoices}
                onChange={onRule}
                onMove={onMoveRule}
                onDuplicate={onDuplicateRule}
                onRemove={onRemoveRule}
                onAdd={(phase) => {
                  const added = addRule(current(), phase);
                  editBook(() => added.book);
                  setRevealedPath(`rules.${added.index}.label`);
                }}
              />
            </>
          )}
          <CreateVersion bookId={bookId} blockedBecause={blockedBecause} artifact={checked} onRevealPath={reveal} />
        </div>
        <aside className={styles.preview}>
          <LivePreview
            offerings={offeringsForPreview}
            priced={check.prices && isObject(checked) ? (checked as unknown as Book) : null}
            examples={shownExamples}
            outcomes={outcomes}
            active={Math.min(active, Math.max(0, shownExamples.length - 1))}
            onActive={setActive}
            onExamples={setExamples}
            pending={check.pending}
            problems={issueCount}
          />
        </aside>
      </div>
      <ImpactPanel
        bookId={bookId}
        artifact={check.prices && isObject(checked) ? checked : null}
        problems={issueCount}
        canPublish={canPublish}
        offerings={offeringChoices}
        factors={factorChoices}
      />
      <RemovalDialog
        pending={pendingRemoval}
        onConfirm={(result) => {
          editBook(() => result.book);
          setPendingRemoval(null);
        }}
        onCancel={() => setPendingRemoval(null)}
      />
    </section>
  );
}
