'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import styles from './one-time-secret.module.css';

/**
 * The one time a secret is visible (API keys, webhook signing secrets). Focus moves here when
 * it appears so keyboard and screen-reader users land on it; "Done" hands the secret back to
 * the page to forget.
 */
export function OneTimeSecret({
  heading,
  warning,
  secretLabel,
  secret,
  children,
  onDone,
}: {
  heading: string;
  warning: ReactNode;
  secretLabel: string;
  secret: string;
  /** What else the person needs to know, under the secret. */
  children?: ReactNode;
  onDone: () => void;
}) {
  const panelRef = useRef<HTMLElement>(null);
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => panelRef.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  };

  return (
    <section ref={panelRef} tabIndex={-1} className={styles.panel} aria-labelledby="secret-heading">
      <h2 id="secret-heading">{heading}</h2>
      <p id="secret-warning" className={styles.warning}>
        {warning}
      </p>
      <label htmlFor="revealed-secret">{secretLabel}</label>
      <div className="row">
        <input
          id="revealed-secret"
          className={`mono ${styles.value}`}
          readOnly
          value={secret}
          aria-describedby="secret-warning"
          onFocus={(e) => e.currentTarget.select()}
          spellCheck={false}
          autoComplete="off"
        />
        <button type="button" onClick={() => void copy()}>
          {copyState === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p aria-live="polite" className={styles.copyStatus}>
        {copyState === 'copied' && 'Copied to your clipboard.'}
        {copyState === 'failed' && `Your browser blocked copying: select the ${secretLabel.toLowerCase()} above and copy it yourself.`}
      </p>
      {children}
      <button type="button" className="primary" onClick={onDone}>
        Done, I have stored it
      </button>
    </section>
  );
}
