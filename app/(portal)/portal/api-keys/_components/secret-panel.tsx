'use client';

import { useEffect, useRef, useState } from 'react';
import { formatTime } from '../../../_components/ui';
import styles from './api-keys.module.css';
import type { ApiKey, RevealedSecret } from './types';

const ENVIRONMENT_LABEL = { test: 'Test', live: 'Live' } as const;

/**
 * The one time a key's secret is visible. Focus moves here when it appears so keyboard and
 * screen-reader users land on it; "Done" hands the secret back to the page to forget.
 */
export function SecretPanel({ revealed, onDone }: { revealed: RevealedSecret; onDone: () => void }) {
  const panelRef = useRef<HTMLElement>(null);
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => panelRef.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(revealed.secret);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
  };
  const environment = ENVIRONMENT_LABEL[revealed.apiKey.environment];

  return (
    <section ref={panelRef} tabIndex={-1} className={styles.secretPanel} aria-labelledby="secret-heading">
      <h2 id="secret-heading">
        {revealed.kind === 'created'
          ? `Your new ${environment} key “${revealed.apiKey.name}”`
          : `The new ${environment} key replacing “${revealed.apiKey.name}”`}
      </h2>
      <p id="secret-warning" className={styles.secretWarning}>
        <strong>Copy this key now: it will not be shown again.</strong> We keep only a fingerprint of it, so nobody can look
        it up later. Store it in your server’s secret settings; if it is ever lost, rotate the key to get a new one.
      </p>
      <label htmlFor="revealed-secret">Secret key</label>
      <div className="row">
        <input
          id="revealed-secret"
          className={`mono ${styles.secretValue}`}
          readOnly
          value={revealed.secret}
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
        {copyState === 'failed' && 'Your browser blocked copying: select the key above and copy it yourself.'}
      </p>
      {revealed.kind === 'rotated' && <p>{predecessorFate(revealed.predecessor)}</p>}
      <button type="button" className="primary" onClick={onDone}>
        Done, I have stored it
      </button>
    </section>
  );
}

function predecessorFate(predecessor: ApiKey) {
  if (predecessor.status === 'revoked') return 'The old key has stopped working. Put the new key in place now.';
  return `The old key keeps working until ${formatTime(predecessor.revokedAt!)}. Put the new key in place before then.`;
}
