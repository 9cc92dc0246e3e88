'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A destructive action behind a confirmation step, in place: the button turns into the
 * question with "confirm" and "Cancel". Focus goes to Cancel (the safe choice) when asked, and
 * back to the button when the question closes.
 */
export function ConfirmButton({
  label,
  accessibleLabel,
  question,
  confirmLabel,
  onConfirm,
  pending = false,
  disabled = false,
}: {
  label: string;
  /** A name that says what the button acts on, when rows repeat the same label. */
  accessibleLabel?: string;
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) cancelRef.current?.focus();
    else if (wasAsking.current) openerRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button
        ref={openerRef}
        type="button"
        className="danger"
        aria-label={accessibleLabel}
        disabled={disabled || pending}
        onClick={() => setAsking(true)}
      >
        {pending ? `${label}…` : label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={accessibleLabel ?? label}>
      <span>{question}</span>
      <button
        type="button"
        className="danger solid"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button ref={cancelRef} type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
