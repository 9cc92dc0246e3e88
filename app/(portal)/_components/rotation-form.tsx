'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { SubmitOrCancel } from './form-fields';

/** How long the old credential keeps working: none, an hour, a day (the API's default), a week. */
const OVERLAP_MINUTES = [0, 60, 24 * 60, 7 * 24 * 60];
const DEFAULT_MINUTES = 24 * 60;
const LABELS: Record<number, string> = { 60: '1 hour', [24 * 60]: '24 hours', [7 * 24 * 60]: '7 days' };

/**
 * Whether the rotation form of a listed credential is open. A rotation closes it, refreshes the
 * list and hands the new secret (shown once) up.
 */
export function useRotationToggle<R>(refresh: () => unknown, onRotated: (revealed: R) => void) {
  const [open, setOpen] = useState(false);
  return {
    open,
    toggle: () => setOpen((wasOpen) => !wasOpen),
    close: () => setOpen(false),
    rotated: (revealed: R) => {
      setOpen(false);
      void refresh();
      onRotated(revealed);
    },
  };
}

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
      <SubmitOrCancel error={mutation.error} submit={mutation.isPending ? 'Rotating…' : submitLabel} disabled={mutation.isPending} onCancel={onCancel} />
    </form>
  );
}
