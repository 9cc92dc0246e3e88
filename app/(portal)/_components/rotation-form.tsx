'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorMessage } from './ui';

/** How long the old credential keeps working: none, an hour, a day (the API's default), a week. */
const OVERLAP_MINUTES = [0, 60, 24 * 60, 7 * 24 * 60];
const DEFAULT_MINUTES = 24 * 60;
const LABELS: Record<number, string> = { 60: '1 hour', [24 * 60]: '24 hours', [7 * 24 * 60]: '7 days' };

/**
 * Rotating an API key or a webhook signing secret: choose the overlap, then the caller's
 * `rotate` answers with the new secret (shown once by the caller). Focus starts on the choice.
 */
export function RotationForm<T>({
  ariaLabel,
  intro,
  choiceLabel,
  noOverlapLabel,
  submitLabel,
  className,
  rotate,
  onRotated,
  onCancel,
}: {
  ariaLabel: string;
  intro: ReactNode;
  choiceLabel: string;
  /** Wording of the "no overlap" choice, e.g. "None — the old key stops working now". */
  noOverlapLabel: string;
  submitLabel: string;
  className?: string;
  rotate: (overlapMinutes: number) => Promise<T>;
  onRotated: (answer: T) => void;
  onCancel: () => void;
}) {
  const [minutes, setMinutes] = useState(DEFAULT_MINUTES);
  const selectRef = useRef<HTMLSelectElement>(null);
  const selectId = useId();
  useEffect(() => selectRef.current?.focus(), []);
  // The answer holds a secret: drop it from the mutation cache once unwatched.
  const mutation = useMutation({ mutationFn: () => rotate(minutes), gcTime: 0 });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await mutation.mutateAsync().catch(() => null);
    if (answer === null) return;
    mutation.reset();
    onRotated(answer);
  };

  return (
    <form onSubmit={submit} className={className} aria-label={ariaLabel}>
      <p style={{ marginTop: 0 }}>{intro}</p>
      <div className="field">
        <label htmlFor={selectId}>{choiceLabel}</label>
        <select ref={selectRef} id={selectId} value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
          {OVERLAP_MINUTES.map((m) => (
            <option key={m} value={m}>
              {m === 0 ? noOverlapLabel : LABELS[m]}
            </option>
          ))}
        </select>
      </div>
      {mutation.isError && <ErrorMessage error={mutation.error} />}
      <div className="row">
        <button type="submit" className="primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Rotating…' : submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
