'use client';

import { addFactor, addOffering, addRule, changeCurrency, type Book } from '../../_lib/book-edits';
import type { Autonomy } from '../../_lib/book-form';
import { IssueList } from '../issue-list';
import { FactorsSection } from './factors-section';
import type { CardListProps, Issues } from './fields';
import { OfferingsSection } from './offerings-section';
import { RulesSection } from './rules-section';
import { SettingsSection } from './settings-section';
import type { useBookEdits } from './use-book-edits';
import type { useFormChoices } from './use-form-choices';

/**
 * The draft as forms, in the order a pricing person reads a book: its settings, what it prices
 * (offerings), what it asks (questions), and the rules that turn answers into prices.
 */
export function DraftForms({ book, edits, choices, cardList, issues, usage, examples, onNotice, onRevealField }: {
  book: Book;
  edits: ReturnType<typeof useBookEdits>;
  choices: ReturnType<typeof useFormChoices>;
  cardList: CardListProps;
  issues: Issues;
  /** How many of the examples each rule applies in, by rule id. */
  usage: ReadonlyMap<string, number>;
  /** How many examples the preview priced (what the rules' usage counts over). */
  examples: number;
  /** A sentence for the person about an edit that did more than they typed (a currency change). */
  onNotice: (notice: string) => void;
  onRevealField: (path: string) => void;
}) {
  const { current, editBook } = edits;
  return (
    <>
      <SettingsSection
        currency={book.currency}
        autonomy={(book.autonomy ?? 'autonomous') as Autonomy}
        quoteValidityDays={book.quoteValidityDays}
        conditions={book.conditions ?? []}
        issues={issues}
        disabled={cardList.disabled}
        onCurrency={(currency) => {
          const result = changeCurrency(current(), currency);
          editBook(() => result.book);
          onNotice(
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
        offerings={book.offerings}
        currency={book.currency}
        factors={choices.factorChoices}
        onAdd={(label) => editBook((b) => addOffering(b, label))}
      />
      <FactorsSection {...cardList} {...edits.factors} factors={book.factors ?? []} onAdd={(label) => editBook((b) => addFactor(b, label))} />
      <RulesSection
        {...cardList}
        {...edits.rules}
        rules={book.rules ?? []}
        sentences={choices.sentences}
        usage={usage}
        examples={examples}
        currency={book.currency}
        offerings={choices.offeringChoices}
        factors={choices.factorOptionChoices}
        onAdd={(phase) => {
          const added = addRule(current(), phase);
          editBook(() => added.book);
          onRevealField(`rules.${added.index}.label`);
        }}
      />
    </>
  );
}

/** A draft whose fields the forms do not know (a type or shape): where to mend it, losing nothing. */
export function FormsCannotShow({ issues, artifact, onOpenJson, onReveal }: {
  issues: Issues;
  artifact: unknown;
  onOpenJson: () => void;
  /** Opens the JSON view at a field. */
  onReveal: (path: string) => void;
}) {
  return (
    <div className="warning">
      <p style={{ marginTop: 0 }}>
        <strong>The forms cannot show this draft</strong>: some fields have a type or shape the forms do not know. Fix them in the JSON view; nothing else
        is lost.
      </p>
      <IssueList issues={issues} artifact={artifact} onReveal={onReveal} label="Fields the forms cannot show" />
      <button type="button" onClick={onOpenJson}>
        Open the JSON view
      </button>
    </div>
  );
}
