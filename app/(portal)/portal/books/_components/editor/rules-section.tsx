'use client';

import { createContext, memo, use, useEffect, useId, useMemo, useState } from 'react';
import { replaceAt } from '../../_lib/book-edits';
import { effectForPhase, fromRuleForm, toRuleForm, type ConditionForm, type EffectForm, type RuleForm, type RuleInput, type RulePhase } from '../../_lib/book-form';
import { Options } from '../../../../_components/form-fields';
import { AmountField, cardState, EditorSection, issuesAt, keysOf, OptionalTextField, PercentField, sameCardProps, TextField, type CardListProps, type CardProps, type Issues } from './fields';
import type { Choice } from './offerings-section';
import { EffectFields, effectPath } from './rule-effect-fields';
import styles from './editor.module.css';

export type FactorChoice = Choice & { options: readonly Choice[] };

/**
 * The offerings and questions a rule's pickers offer. Only open rule editors read them, so that
 * renaming an offering re-renders the open editors and the sentences that name it, not every card.
 */
const RuleChoices = createContext<{ offerings: readonly Choice[]; factors: readonly FactorChoice[] }>({ offerings: [], factors: [] });

/** The phases with rules, in evaluation order, as the editor names and explains them. */
const RULE_PHASES: { phase: RulePhase; title: string; detail: string; add: string }[] = [
  { phase: 'baseOverride', title: 'Special base prices', detail: 'Replace an offering’s base price when answers match. The first that matches wins.', add: 'Add a special base price' },
  { phase: 'scopedModifier', title: 'Surcharges for chosen offerings', detail: 'Add or take off an amount or a percentage, for the offerings you pick.', add: 'Add a surcharge for chosen offerings' },
  { phase: 'conditionalModifier', title: 'Surcharges when answers match', detail: 'Add or take off an amount or a percentage when the answers match, for any offering.', add: 'Add a surcharge when answers match' },
  { phase: 'discount', title: 'Discounts', detail: 'Taken off after every surcharge, in this order.', add: 'Add a discount' },
  { phase: 'guardrail', title: 'Minimum and maximum charges', detail: 'Keep the total within limits, after discounts.', add: 'Add a minimum or maximum' },
  { phase: 'paymentTerms', title: 'Deposit', detail: 'How much is due when booking. The first that matches sets it.', add: 'Add a deposit rule' },
];
const PHASE_CHOICES = RULE_PHASES.map((p) => ({ id: p.phase, label: p.title }));

type RuleCardProps = CardProps<RuleInput> & {
  rule: RuleInput;
  position: number;
  phaseCount: number;
  sentence: string;
  /** In how many of the preview's examples the rule applied. */
  usage: number;
  examples: number;
  currency: string;
  onMove: (index: number, direction: -1 | 1) => void;
  onDuplicate: (index: number) => void;
};

const RuleCard = memo(
  function RuleCard(props: RuleCardProps) {
    const { rule, index, position, phaseCount, sentence, usage, examples, issues, revealed, disabled } = props;
    const id = useId();
    const path = `rules.${index}`;
    const [open, setOpen] = useState(false);
    useEffect(() => {
      if (revealed) setOpen(true);
    }, [revealed]);
    const problems = Object.keys(issues ?? {}).length;
    const name = `rule “${rule.label || index + 1}”`;
    return (
      <article
        className={`${styles.entity} ${usage > 0 ? styles.applied : ''}`}
        aria-labelledby={`${id}-sentence`}
        data-path={path}
        data-revealed={revealed || undefined}
        data-testid="rule-card"
      >
        <div className={styles.entityHead}>
          <div style={{ flex: '1 1 20rem', minWidth: 0 }}>
            <p id={`${id}-sentence`} className={styles.sentence}>
              {sentence}
            </p>
            <span className="muted" style={{ fontSize: '0.85rem' }}>
              {rule.label}
              {examples > 0 && (
                <>
                  {' · '}
                  <span className={styles.usage} data-testid="rule-usage">
                    {usage === 0 ? 'applies in none of the examples' : `applies in ${usage} of ${examples} example${examples === 1 ? '' : 's'}`}
                  </span>
                </>
              )}
              {problems > 0 && (
                <>
                  {' · '}
                  <span className="badge danger">{problems === 1 ? '1 problem' : `${problems} problems`}</span>
                </>
              )}
            </span>
          </div>
          <span className={styles.actions}>
            <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} aria-controls={`${id}-editor`}>
              {open ? 'Done' : disabled ? 'Details' : 'Edit'}
            </button>
            <button type="button" onClick={() => props.onMove(index, -1)} disabled={disabled || position === 0} aria-label={`Move ${name} earlier`}>
              ↑
            </button>
            <button type="button" onClick={() => props.onMove(index, 1)} disabled={disabled || position === phaseCount - 1} aria-label={`Move ${name} later`}>
              ↓
            </button>
            <button type="button" onClick={() => props.onDuplicate(index)} disabled={disabled} aria-label={`Duplicate ${name}`}>
              Duplicate
            </button>
            <button type="button" className="danger" onClick={() => props.onRemove(index)} disabled={disabled} aria-label={`Remove ${name}`}>
              Remove
            </button>
          </span>
        </div>
        {open && <RuleEditor id={`${id}-editor`} {...props} path={path} />}
      </article>
    );
  },
  sameCardProps,
);

function RuleEditor({ id, rule, index, currency, issues, disabled, onChange, path }: RuleCardProps & { id: string; path: string }) {
  const { offerings, factors } = use(RuleChoices);
  const form = toRuleForm(rule, currency);
  const set = (change: Partial<RuleForm>, field: string) => onChange(index, fromRuleForm({ ...form, ...change }, currency), `${path}.${field}`);
  const scopeProblems = issuesAt(issues, `${path}.offeringIds`);
  const whenProblems = issuesAt(issues, `${path}.when`);
  const factorOf = (factorId: string) => factors.find((f) => f.id === factorId);
  const setCondition = (i: number, condition: ConditionForm) =>
    set({ conditions: replaceAt(form.conditions, i, condition) }, `when.${i}`);
  const unusedFactor = factors.find((f) => !form.conditions.some((c) => c.factorId === f.id));

  return (
    <div id={id} style={{ marginTop: '0.75rem' }}>
      <div className={styles.fields}>
        <TextField label="Name on receipts" path={`${path}.label`} issues={issues} disabled={disabled} value={form.label} onChange={(label) => set({ label }, 'label')} />
        <div className="field">
          <label htmlFor={`${id}-phase`}>Kind of rule</label>
          <select
            id={`${id}-phase`}
            value={form.phase}
            disabled={disabled}
            data-path={`${path}.phase`}
            onChange={(e) => {
              const phase = e.target.value as RulePhase;
              const scope = phase === 'scopedModifier' && form.scope === 'all' ? offerings.slice(0, 1).map((o) => o.id) : form.scope;
              set({ phase, scope, effect: effectForPhase(phase, form.effect, currency) }, 'phase');
            }}
          >
            <Options choices={PHASE_CHOICES} />
          </select>
        </div>
      </div>

      <fieldset className={styles.plain} data-path={`${path}.offeringIds`}>
        <legend>Applies to</legend>
        {form.phase !== 'scopedModifier' && (
          <label style={{ fontWeight: 400, display: 'inline-flex', gap: '0.4rem', marginRight: '1rem' }}>
            <input type="radio" name={`${id}-scope`} checked={form.scope === 'all'} disabled={disabled} onChange={() => set({ scope: 'all' }, 'offeringIds')} />
            Every offering
          </label>
        )}
        <label style={{ fontWeight: 400, display: 'inline-flex', gap: '0.4rem' }}>
          <input
            type="radio"
            name={`${id}-scope`}
            checked={form.scope !== 'all'}
            disabled={disabled}
            onChange={() => set({ scope: offerings.slice(0, 1).map((o) => o.id) }, 'offeringIds')}
          />
          Only these offerings
        </label>
        {form.scope !== 'all' && (
          <div className={styles.checks}>
            {offerings.map((o) => {
              const scope = form.scope as string[];
              return (
                <label key={o.id}>
                  <input
                    type="checkbox"
                    checked={scope.includes(o.id)}
                    disabled={disabled}
                    onChange={(e) =>
                      set({ scope: e.target.checked ? offerings.filter((x) => x.id === o.id || scope.includes(x.id)).map((x) => x.id) : scope.filter((x) => x !== o.id) }, 'offeringIds')
                    }
                  />
                  {o.label}
                </label>
              );
            })}
          </div>
        )}
        {scopeProblems.length > 0 && <p className="field-error">{scopeProblems.join('; ')}</p>}
      </fieldset>

      <fieldset className={styles.plain} data-path={`${path}.when`}>
        <legend>Conditions</legend>
        {form.conditions.length === 0 && (
          <p className="muted" style={{ margin: '0.2rem 0' }}>
            {form.phase === 'conditionalModifier' ? 'Add at least one condition: this kind of rule applies only when answers match.' : 'Always (no conditions).'}
          </p>
        )}
        {form.conditions.map((condition, i) => {
          const factor = factorOf(condition.factorId);
          const optionProblems = issuesAt(issues, `${path}.when.${i}.optionIds`).concat(issuesAt(issues, `${path}.when.${i}.factorId`));
          return (
            <div key={`${condition.factorId}-${i}`} className={styles.condition} data-path={`${path}.when.${i}`}>
              <div className="row">
                <label htmlFor={`${id}-when-${i}`} style={{ margin: 0 }}>
                  {i === 0 ? 'When' : 'and when'}
                </label>
                <select
                  id={`${id}-when-${i}`}
                  value={condition.factorId}
                  disabled={disabled}
                  onChange={(e) => setCondition(i, { factorId: e.target.value, optionIds: [] })}
                >
                  {!factor && <option value={condition.factorId}>missing question “{condition.factorId}”</option>}
                  <Options choices={factors} />
                </select>
                <span>is one of</span>
                <button type="button" className="danger" disabled={disabled} onClick={() => set({ conditions: form.conditions.filter((_, j) => j !== i) }, 'when')} aria-label={`Remove condition ${i + 1}`}>
                  Remove condition
                </button>
              </div>
              <div className={styles.checks} role="group" aria-label={`Answers for condition ${i + 1}`}>
                {(factor?.options ?? []).map((o) => (
                  <label key={o.id}>
                    <input
                      type="checkbox"
                      checked={condition.optionIds.includes(o.id)}
                      disabled={disabled}
                      onChange={(e) =>
                        setCondition(i, {
                          factorId: condition.factorId,
                          optionIds: e.target.checked ? factor!.options.filter((x) => x.id === o.id || condition.optionIds.includes(x.id)).map((x) => x.id) : condition.optionIds.filter((x) => x !== o.id),
                        })
                      }
                    />
                    {o.label}
                  </label>
                ))}
              </div>
              {optionProblems.length > 0 && <p className="field-error">{optionProblems.join('; ')}</p>}
            </div>
          );
        })}
        {whenProblems.length > 0 && <p className="field-error">{whenProblems.join('; ')}</p>}
        <button
          type="button"
          disabled={disabled || factors.length === 0}
          onClick={() => set({ conditions: [...form.conditions, { factorId: (unusedFactor ?? factors[0]).id, optionIds: [] }] }, 'when')}
        >
          {form.conditions.length === 0 ? 'Add a condition' : 'Add another condition'}
        </button>
        {factors.length === 0 && <span className="muted"> Add a question first: conditions are answers to questions.</span>}
      </fieldset>

      <div className={styles.fields}>
        <EffectFields id={id} form={form} currency={currency} issues={issues} disabled={disabled} path={path} onEffect={(effect) => set({ effect }, effectPath({ ...form, effect }))} />
      </div>

      <OptionalTextField
        label="Description (for your team; not on receipts)"
        path={`${path}.description`}
        issues={issues}
        disabled={disabled}
        value={form.description}
        onChange={(description) => set({ description }, 'description')}
      />
    </div>
  );
}

export function RulesSection({ rules, sentences, usage, offerings, factors, onAdd, issuesOf, revealedPath, ...shared }: CardListProps &
  Pick<RuleCardProps, 'examples' | 'currency' | 'onChange' | 'onMove' | 'onDuplicate' | 'onRemove'> & {
    rules: readonly RuleInput[];
    sentences: readonly string[];
    usage: ReadonlyMap<string, number>;
    offerings: readonly Choice[];
    factors: readonly FactorChoice[];
    onAdd: (phase: RulePhase) => void;
  }) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const keys = useMemo(() => keysOf(rules.map((r) => r.id)), [rules]);
  const needle = filter.trim().toLowerCase();
  const { byPhase, positions } = useMemo(() => {
    const groups = new Map<RulePhase, number[]>(RULE_PHASES.map((p) => [p.phase, []]));
    const at = new Map<number, number>();
    rules.forEach((rule, index) => {
      const group = groups.get(rule.phase);
      if (!group) return;
      at.set(index, group.length);
      group.push(index);
    });
    return { byPhase: groups, positions: at };
  }, [rules]);
  const choices = useMemo(() => ({ offerings, factors }), [offerings, factors]);
  return (
    <RuleChoices value={choices}>
    <EditorSection
      title="Rules"
      intro="Rules change an offering’s base price, in this order of kinds, and within a kind from top to bottom. Every rule, applied or not, is explained on the receipt."
    >
      {rules.length > 8 && (
        <div className="field">
          <label htmlFor={`${id}-filter`}>Find a rule</label>
          <input id={`${id}-filter`} type="search" value={filter} placeholder="Words in the rule, e.g. storeys" onChange={(e) => setFilter(e.target.value)} />
        </div>
      )}
      {RULE_PHASES.map(({ phase, title, detail, add }) => {
        const indices = byPhase.get(phase) ?? [];
        const shown = needle ? indices.filter((i) => sentences[i].toLowerCase().includes(needle) || rules[i].label.toLowerCase().includes(needle)) : indices;
        return (
          <div key={phase} className={styles.phase} data-testid={`phase-${phase}`}>
            <h3>
              {title} <span className="muted">({indices.length})</span>
            </h3>
            <p className="muted" style={{ margin: '0 0 0.5rem' }}>
              {detail}
            </p>
            {shown.map((index) => (
              <RuleCard
                key={keys[index]}
                {...shared}
                {...cardState({ issuesOf, revealedPath }, `rules.${index}`)}
                rule={rules[index]}
                index={index}
                position={positions.get(index)!}
                phaseCount={indices.length}
                sentence={sentences[index]}
                usage={usage.get(rules[index].id) ?? 0}
              />
            ))}
            <button type="button" onClick={() => onAdd(phase)} disabled={shared.disabled}>
              {add}
            </button>
          </div>
        );
      })}
    </EditorSection>
    </RuleChoices>
  );
}
