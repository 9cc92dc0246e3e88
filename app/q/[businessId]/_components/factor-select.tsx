import type { Factor } from './answers';

// Option ids are letters, digits, `_`, `-` and `.`, so neither value can collide with one.
const UNANSWERED = '';
const NOT_SURE = '?not-sure';

type Props = {
  factor: Factor;
  /** An option id, `null` for "I'm not sure", undefined when unanswered. */
  answer: string | null | undefined;
  missing: boolean;
  onAnswer(answer: string | null | undefined): void;
};

export function FactorSelect({ factor, answer, missing, onAnswer }: Props) {
  const id = `factor-${factor.id}`;
  const errorId = `${id}-missing`;
  const value = answer === undefined ? UNANSWERED : answer === null ? NOT_SURE : answer;
  return (
    <div className={missing ? 'field factor-field is-missing' : 'field factor-field'}>
      <label htmlFor={id}>
        {factor.label}
        {!factor.required && <span className="optional"> (optional)</span>}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const chosen = event.target.value;
          onAnswer(chosen === UNANSWERED ? undefined : chosen === NOT_SURE ? null : chosen);
        }}
        aria-invalid={missing || undefined}
        aria-describedby={missing ? errorId : undefined}
        data-missing={missing ? '' : undefined}
      >
        <option value={UNANSWERED}>{factor.required ? 'Choose one…' : 'Skip this question'}</option>
        {factor.options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
        {factor.unknownAllowed && <option value={NOT_SURE}>I&apos;m not sure</option>}
      </select>
      {missing && (
        <p id={errorId} className="field-error">
          Please answer this so we can work out your price.
        </p>
      )}
    </div>
  );
}
