'use client';

import { useState } from 'react';
import type { Book, Removal } from '../../_lib/book-edits';
import { labelsOf, ruleSentence } from '../../_lib/rule-sentence';
import { ConfirmDialog } from '../../../../_components/confirm-dialog';

/** A removal that something refers to, waiting for the person's choice. */
export type PendingRemoval = {
  /** "the question “Home size”". */
  what: string;
  book: Book;
  /** What removing does, for each choice the person has (the first is the exact one). */
  preview: (choice: RemovalChoice) => { book: Book; removal: Removal };
  /** Offered when the other choice makes sense: its words. */
  alternative?: string;
};

export type RemovalChoice = 'exact' | 'alternative';

function RuleList({ title, rules, book }: { title: string; rules: Removal['rulesRemoved']; book: Book }) {
  if (rules.length === 0) return null;
  const labels = labelsOf(book);
  return (
    <>
      <p style={{ marginBottom: '0.25rem' }}>{title}</p>
      <ul style={{ marginTop: 0 }}>
        {rules.map((rule) => (
          <li key={rule.id}>
            <strong>{rule.label}</strong>: {ruleSentence(rule, book, labels)}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Says what removing something that rules or offerings use does, and lets the person choose. */
export function RemovalDialog({ pending, onConfirm, onCancel }: {
  pending: PendingRemoval | null;
  onConfirm: (result: { book: Book; removal: Removal }) => void;
  onCancel: () => void;
}) {
  const [choice, setChoice] = useState<RemovalChoice>('exact');
  const result = pending?.preview(choice);
  const close = () => {
    setChoice('exact');
    onCancel();
  };
  return (
    <ConfirmDialog
      open={pending !== null}
      title={pending ? `Remove ${pending.what}?` : ''}
      confirmLabel="Remove"
      onConfirm={() => {
        if (result) onConfirm(result);
        setChoice('exact');
      }}
      onCancel={close}
    >
      {pending && result && (
        <div data-testid="removal-dialog">
          <p>Other parts of the book use it. Nothing will be left pointing at it:</p>
          <RuleList title="These rules could no longer apply, so they are removed too:" rules={result.removal.rulesRemoved} book={pending.book} />
          <RuleList title="These rules keep working without it:" rules={result.removal.rulesChanged} book={pending.book} />
          {result.removal.offeringsChanged.length > 0 && (
            <p>
              {result.removal.offeringsChanged.length === 1 ? 'This offering stops' : 'These offerings stop'} asking it:{' '}
              {result.removal.offeringsChanged.map((o) => o.label).join(', ')}.
            </p>
          )}
          {result.removal.factorsChanged.length > 0 && (
            <p>
              “Not sure” will ask for an answer again on: {result.removal.factorsChanged.map((f) => f.label).join(', ')}.
            </p>
          )}
          {pending.alternative && (
            <label style={{ fontWeight: 400, display: 'flex', gap: '0.4rem', alignItems: 'baseline' }}>
              <input type="checkbox" checked={choice === 'alternative'} onChange={(e) => setChoice(e.target.checked ? 'alternative' : 'exact')} />
              {pending.alternative}
            </label>
          )}
          <p className="muted">You can undo this.</p>
        </div>
      )}
    </ConfirmDialog>
  );
}
