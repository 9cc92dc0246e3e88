'use client';

import { useMemo } from 'react';
import type { Book } from '../../_lib/book-edits';
import type { RuleInput } from '../../_lib/book-form';
import { labelsOf, ruleSentence, type Labels } from '../../_lib/rule-sentence';

/**
 * What the forms offer to choose from (offerings, questions and their answers) and each rule in a
 * sentence. Labels change only with offerings and questions: typing in a rule keeps every other
 * rule's sentence.
 */
export function useFormChoices(formBook: Book | null) {
  const offerings = formBook?.offerings;
  const factors = formBook?.factors;
  const labels: Labels | null = useMemo(() => (offerings ? labelsOf({ offerings, factors } as Book) : null), [offerings, factors]);
  const offeringChoices = useMemo(() => (offerings ?? []).map((o) => ({ id: o.id, label: o.label || o.id })), [offerings]);
  const factorChoices = useMemo(() => (factors ?? []).map((f) => ({ id: f.id, label: f.label || f.id })), [factors]);
  const factorOptionChoices = useMemo(
    () => (factors ?? []).map((f) => ({ id: f.id, label: f.label || f.id, options: f.options.map((o) => ({ id: o.id, label: o.label || o.id })) })),
    [factors],
  );
  const currency = formBook?.currency;
  // A new cache whenever labels or the currency change (a sentence names them).
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
  return { offeringChoices, factorChoices, factorOptionChoices, sentences };
}
