'use client';

import { useEffect, useId, useState, type CSSProperties, type ReactNode } from 'react';
import { basisPointsToText, decimalsOf, minorToText, textToBasisPoints, textToMinor } from '../../_lib/amount-text';
import { moveItem, replaceAt } from '../../_lib/book-edits';
import styles from './editor.module.css';

/**
 * Problems of one field, by its dotted path in the artifact (`offerings.0.label`): the same
 * paths the JSON view and the server use, so a problem found anywhere points here.
 */
export type Issues = Record<string, string[]>;

/** React keys for items by id, which stay when items move; a repeated id (a draft's mistake) gets a suffix. */
export function keysOf(ids: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return n === 0 ? id : `${id}#${n}`;
  });
}

export function issuesAt(issues: Issues | undefined, path: string): string[] {
  return issues?.[path] ?? [];
}

function Problems({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {messages.join('; ')}
    </p>
  );
}

type Common = { label: string; path: string; issues?: Issues; hint?: ReactNode; disabled: boolean; className?: string };

export function TextField({ label, path, issues, hint, disabled, className, value, onChange, multiline, placeholder }: Common & {
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  placeholder?: string;
}) {
  const id = useId();
  const problems = issuesAt(issues, path);
  const describedBy = [problems.length ? `${id}-problems` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const props = {
    id,
    value,
    disabled,
    placeholder,
    'data-path': path,
    'aria-invalid': problems.length > 0 || undefined,
    'aria-describedby': describedBy,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {multiline ? <textarea rows={2} {...props} /> : <input type="text" {...props} />}
      <HintAndProblems id={id} hint={hint} problems={problems} />
    </div>
  );
}

/** An optional text, such as a description: an empty one is none. */
export function OptionalTextField({ value, onChange, ...common }: Common & { value: string | undefined; onChange: (value: string | undefined) => void }) {
  return <TextField {...common} multiline value={value ?? ''} onChange={(text) => onChange(text === '' ? undefined : text)} />;
}

/**
 * Text that becomes a number only when it reads as one: what the person types stays in the
 * field while it does not (with the reason), and the last good value stays in the draft.
 */
function useParsedText(shown: string, parse: (text: string) => boolean, onCommit: (text: string) => void) {
  const [text, setText] = useState(shown);
  const [editing, setEditing] = useState(false);
  // A change from elsewhere (undo, the JSON view, another currency) shows at once unless the person is typing here.
  useEffect(() => {
    if (!editing) setText(shown);
  }, [shown, editing]);
  return {
    text,
    valid: parse(text),
    onChange: (next: string) => {
      setText(next);
      if (parse(next)) onCommit(next);
    },
    onFocus: () => setEditing(true),
    onBlur: () => {
      setEditing(false);
      setText(shown);
    },
  };
}

function NumberText({ label, path, issues, hint, disabled, className, shown, parse, onCommit, unit, invalidMessage, inputMode }: Common & {
  shown: string;
  parse: (text: string) => boolean;
  onCommit: (text: string) => void;
  unit: string;
  invalidMessage: string;
  inputMode: 'decimal' | 'numeric';
}) {
  const id = useId();
  const field = useParsedText(shown, parse, onCommit);
  const problems = field.valid ? issuesAt(issues, path) : [invalidMessage];
  const describedBy = [problems.length ? `${id}-problems` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className={styles.amount}>
        <input
          id={id}
          type="text"
          inputMode={inputMode}
          value={field.text}
          disabled={disabled}
          data-path={path}
          aria-invalid={problems.length > 0 || undefined}
          aria-describedby={describedBy}
          onChange={(e) => field.onChange(e.target.value)}
          onFocus={field.onFocus}
          onBlur={field.onBlur}
        />
        <span aria-hidden="true">{unit}</span>
      </div>
      <HintAndProblems id={id} hint={hint} problems={problems} />
    </div>
  );
}

/** An amount in the book's currency, typed as "120.00" (the form model's text). */
export function AmountField({ currency, value, onChange, allowNegative = false, ...common }: Common & {
  currency: string;
  value: string;
  onChange: (text: string) => void;
  allowNegative?: boolean;
}) {
  const decimals = decimalsOf(currency);
  const example = minorToText(12000 * 10 ** Math.max(0, decimals - 2), currency);
  return (
    <NumberText
      {...common}
      shown={value}
      parse={(text) => {
        const minor = textToMinor(text, currency);
        return minor !== null && (allowNegative || minor >= 0);
      }}
      onCommit={(text) => onChange(minorToText(textToMinor(text, currency)!, currency))}
      unit={currency}
      invalidMessage={`Type an amount such as ${example}${decimals === 0 ? ' (no decimals in this currency)' : ''}.`}
      inputMode="decimal"
    />
  );
}

/** A percentage, typed as "12.5". */
export function PercentField({ value, onChange, ...common }: Common & { value: string; onChange: (text: string) => void }) {
  return (
    <NumberText
      {...common}
      shown={value}
      parse={(text) => {
        const bp = textToBasisPoints(text);
        return bp !== null && bp >= 0;
      }}
      onCommit={(text) => onChange(basisPointsToText(textToBasisPoints(text)!))}
      unit="%"
      invalidMessage="Type a percentage such as 15 or 12.5 (at most two decimals)."
      inputMode="decimal"
    />
  );
}

/** Up, down, remove: the small buttons beside each item of a list. */
export function ItemActions({ name, index, count, disabled, onMove, onRemove, extra }: {
  name: string;
  index: number;
  count: number;
  disabled: boolean;
  onMove: (to: number) => void;
  onRemove?: () => void;
  extra?: ReactNode;
}) {
  return (
    <span className={styles.actions}>
      <button type="button" onClick={() => onMove(index - 1)} disabled={disabled || index === 0} aria-label={`Move ${name} up`}>
        ↑
      </button>
      <button type="button" onClick={() => onMove(index + 1)} disabled={disabled || index === count - 1} aria-label={`Move ${name} down`}>
        ↓
      </button>
      {extra}
      {onRemove && (
        <button type="button" className="danger" onClick={onRemove} disabled={disabled} aria-label={`Remove ${name}`}>
          Remove
        </button>
      )}
    </span>
  );
}

/** A list of short texts (conditions), each editable, reorderable and removable. */
export function TextList({ legend, path, items, onChange, issues, disabled, addLabel, itemName }: {
  legend: string;
  path: string;
  items: readonly string[];
  onChange: (items: string[]) => void;
  issues?: Issues;
  disabled: boolean;
  addLabel: string;
  itemName: string;
}) {
  const id = useId();
  return (
    <fieldset className={styles.plain} data-path={path}>
      <legend>{legend}</legend>
      {items.length === 0 && <p className="muted" style={{ margin: '0.2rem 0' }}>None.</p>}
      {items.map((item, i) => {
        const problems = issuesAt(issues, `${path}.${i}`);
        return (
          <div key={i} className="row" style={{ marginBottom: '0.35rem', flexWrap: 'nowrap' }}>
            <label htmlFor={`${id}-${i}`} className="sr-only">
              {itemName} {i + 1}
            </label>
            <input
              id={`${id}-${i}`}
              type="text"
              value={item}
              style={{ flex: 1, minWidth: 0 }}
              disabled={disabled}
              data-path={`${path}.${i}`}
              aria-invalid={problems.length > 0 || undefined}
              onChange={(e) => onChange(replaceAt(items, i, e.target.value))}
            />
            <ItemActions
              name={`${itemName} ${i + 1}`}
              index={i}
              count={items.length}
              disabled={disabled}
              onMove={(to) => onChange(moveItem(items, i, to))}
              onRemove={() => onChange(items.filter((_, j) => j !== i))}
            />
          </div>
        );
      })}
      <button type="button" onClick={() => onChange([...items, ''])} disabled={disabled}>
        {addLabel}
      </button>
    </fieldset>
  );
}

/** Under a field: its hint and its problems, with the ids its aria-describedby names. */
function HintAndProblems({ id, hint, problems }: { id: string; hint: ReactNode | undefined; problems: readonly string[] }) {
  return (
    <>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      <Problems id={`${id}-problems`} messages={problems} />
    </>
  );
}

/** Whether the field being revealed is `prefix` or inside it (`rules.3` holds `rules.3.label`). */
export function isRevealed(revealedPath: string | null, prefix: string): boolean {
  return revealedPath !== null && (revealedPath === prefix || revealedPath.startsWith(`${prefix}.`));
}

/**
 * What every card of an entity (offering, question, rule) gets: where it is, its problems, whether
 * the field being revealed is in it, whether editing is off, and where it reports an edit of `field`.
 */
export type CardProps<T> = {
  index: number;
  issues: Issues | undefined;
  /** Changes when the card's problems change: cards compare this, not the object. */
  issueKey: string;
  revealed: boolean;
  disabled: boolean;
  onChange: (index: number, item: T, field: string) => void;
  onRemove: (index: number) => void;
};

/** What the editor hands every list of cards: problems by entity, the field being revealed, and whether editing is off. */
export type CardListProps = {
  issuesOf: (prefix: string) => { issues: Issues | undefined; key: string };
  revealedPath: string | null;
  disabled: boolean;
};

/** The card at `prefix` (`rules.3`): its problems, a key that changes only when they do, and whether the field being revealed is in it. */
export function cardState({ issuesOf, revealedPath }: Omit<CardListProps, 'disabled'>, prefix: string) {
  const { issues, key } = issuesOf(prefix);
  return { issues, issueKey: key, revealed: isRevealed(revealedPath, prefix) };
}

/**
 * memo()'s comparison for the cards: every prop the same, but for `issues`, a new object on every
 * check, which the cards compare by its `issueKey` instead.
 */
export function sameCardProps<P extends { issues: Issues | undefined; issueKey: string }>(a: P, b: P): boolean {
  const keys = Object.keys(a) as (keyof P)[];
  return keys.length === Object.keys(b).length && keys.every((key) => key === 'issues' || a[key] === b[key]);
}

/** One part of the editor (offerings, questions, rules, settings): a heading, a line on what it is for, and its content. */
export function EditorSection({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section className={styles.section} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {intro && <p className="muted">{intro}</p>}
      {children}
    </section>
  );
}

/** The card of an offering or a question: its name as the heading, with the item's actions beside it. */
export function NamedCard({ path, revealed, name, actions, children }: { path: string; revealed: boolean; name: string; actions: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <article className={styles.entity} aria-labelledby={`${id}-name`} data-path={path} data-revealed={revealed || undefined}>
      <div className={styles.entityHead}>
        <h3 id={`${id}-name`} style={{ margin: 0, fontSize: '1rem' }}>
          {name}
        </h3>
        {actions}
      </div>
      {children}
    </article>
  );
}

/** A name and a button that adds something by that name (an offering, a question, an answer). */
export function AddByName({ label, placeholder, button, disabled, onAdd, style }: {
  /** Read by screen readers: the field has no visible label beside its placeholder. */
  label: string;
  placeholder: string;
  button: string;
  disabled: boolean;
  onAdd: (name: string) => void;
  style?: CSSProperties;
}) {
  const id = useId();
  const [name, setName] = useState('');
  return (
    <form
      className="row"
      style={style}
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim()) return;
        onAdd(name.trim());
        setName('');
      }}
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} type="text" placeholder={placeholder} value={name} disabled={disabled} onChange={(e) => setName(e.target.value)} />
      <button type="submit" disabled={disabled || !name.trim()}>
        {button}
      </button>
    </form>
  );
}
