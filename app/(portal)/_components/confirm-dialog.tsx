'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import styles from './confirm-dialog.module.css';

/** A modal question (native <dialog>: focus stays inside, Escape cancels). */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  onConfirm,
  onCancel,
  confirmDisabled = false,
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** While the question cannot be answered yet (figures loading, a phrase to type). */
  confirmDisabled?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={`${id}-title`}
      // Escape: the state follows in the same event. The 'close' event comes a task later, and
      // Chrome runs input first: an Enter on the opening button in between reopened nothing, and
      // the late close then cancelled the question asked again.
      onCancel={() => open && onCancel()}
      onClose={() => open && !ref.current?.open && onCancel()}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <div className="row" style={{ justifyContent: 'flex-end', marginTop: '1rem' }}>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={onConfirm} disabled={confirmDisabled}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
