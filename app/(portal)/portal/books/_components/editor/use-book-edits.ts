'use client';

import { useCallback, useRef, useState, type Dispatch } from 'react';
import {
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
import type { HistoryAction } from '../../_lib/draft-history';
import { isJsonObject } from '../../_lib/json-source';
import { checkDraft } from '../../_lib/live-check';
import type { RuleInput } from '../../_lib/book-form';
import type { PendingRemoval } from './removal-dialog';

/**
 * The forms' edits of the draft, as undoable steps, and whether the forms can show a draft at all
 * (right types and shapes). The callbacks keep their identity across renders, so the memoised
 * cards of a big book redraw only when their own part changes.
 */
export function useBookEdits({ draft, dispatch, checked, shapeIssues, formsShown }: {
  draft: unknown;
  dispatch: Dispatch<HistoryAction<unknown>>;
  /** The draft the last check was for, and its shape problems. */
  checked: unknown;
  shapeIssues: Record<string, unknown>;
  formsShown: boolean;
}) {
  // Known for every draft the forms show: a checked draft says it; a form edit of a showable
  // draft is showable; anything else (the first draft, a JSON edit) is checked on the spot.
  const showable = useRef(new WeakMap<object, boolean>());
  if (isJsonObject(checked)) showable.current.set(checked, Object.keys(shapeIssues).length === 0);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const formBook: Book | null = (() => {
    if (!formsShown || !isJsonObject(draft)) return null;
    let ok = showable.current.get(draft);
    if (ok === undefined) showable.current.set(draft, (ok = Object.keys(checkDraft(draft).shapeIssues).length === 0));
    return ok ? (draft as unknown as Book) : null;
  })();
  /** The draft as the forms show it now (for edits made from a callback). */
  const current = useCallback(() => draftRef.current as Book, []);

  const editBook = useCallback(
    (update: (book: Book) => Book, group?: string) => {
      const edit = (present: unknown) => {
        const next = update(present as Book);
        // A form edit keeps a showable draft showable.
        if (isJsonObject(present) && showable.current.get(present) && isJsonObject(next)) showable.current.set(next, true);
        return next;
      };
      dispatch({ type: 'edit', update: edit, group, now: Date.now() });
    },
    [dispatch],
  );

  const onOffering = useCallback((index: number, offering: Book['offerings'][number], field: string) => editBook((b) => replaceOffering(b, index, offering), field), [editBook]);
  const onMoveOffering = useCallback((from: number, to: number) => editBook((b) => moveOffering(b, from, to)), [editBook]);
  const onFactor = useCallback((index: number, factor: NonNullable<Book['factors']>[number], field: string) => editBook((b) => replaceFactor(b, index, factor), field), [editBook]);
  const onMoveFactor = useCallback((from: number, to: number) => editBook((b) => moveFactor(b, from, to)), [editBook]);
  const onRule = useCallback((index: number, rule: RuleInput, field: string) => editBook((b) => replaceRule(b, index, rule), field), [editBook]);
  const onMoveRule = useCallback((index: number, direction: -1 | 1) => editBook((b) => moveRuleWithinPhase(b, index, direction)), [editBook]);
  const onDuplicateRule = useCallback((index: number) => editBook((b) => duplicateRule(b, index)), [editBook]);
  const onRemoveRule = useCallback((index: number) => editBook((b) => removeRule(b, index)), [editBook]);

  // Removals that something uses ask first, saying what happens to it (removal-dialog.tsx).
  const [pendingRemoval, setPendingRemoval] = useState<PendingRemoval | null>(null);
  const askOrRemove = useCallback(
    (pending: PendingRemoval) => {
      const exact = pending.preview('exact');
      if (nothingRefers(exact.removal)) editBook(() => exact.book);
      else setPendingRemoval(pending);
    },
    [editBook],
  );
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
    [askOrRemove, current],
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
    [askOrRemove, current],
  );
  const onRemoveOption = useCallback(
    (index: number, optionId: string) => {
      const b = current();
      const factor = b.factors![index];
      const option = factor.options.find((o) => o.id === optionId)!;
      askOrRemove({ what: `the answer “${option.label}” of “${factor.label}”`, book: b, preview: () => removeOption(b, factor.id, optionId) });
    },
    [askOrRemove, current],
  );

  return {
    formBook,
    current,
    editBook,
    offerings: { onChange: onOffering, onMove: onMoveOffering, onRemove: onRemoveOffering },
    factors: { onChange: onFactor, onMove: onMoveFactor, onRemove: onRemoveFactor, onRemoveOption },
    rules: { onChange: onRule, onMove: onMoveRule, onDuplicate: onDuplicateRule, onRemove: onRemoveRule },
    removal: {
      pending: pendingRemoval,
      confirm: (book: Book) => {
        editBook(() => book);
        setPendingRemoval(null);
      },
      cancel: () => setPendingRemoval(null),
    },
  };
}
