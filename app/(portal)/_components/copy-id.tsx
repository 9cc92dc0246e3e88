'use client';

import { useState } from 'react';

/** A long id shown short (its first characters), whole on hover, with a button that copies it whole. */
export function CopyId({ id, label = 'id', chars = 8 }: { id: string; label?: string; chars?: number }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () =>
    navigator.clipboard.writeText(id).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <span className="copy-id">
      <code title={id}>{id.length > chars + 1 ? `${id.slice(0, chars)}…` : id}</code>
      <button type="button" className="copy-button" onClick={() => void copy()} aria-label={`Copy ${label} ${id}`} title={`Copy the whole ${label}`}>
        {state === 'copied' ? '✓' : 'Copy'}
      </button>
      <span className="sr-only" role="status">
        {state === 'copied' ? `Copied ${label}.` : state === 'failed' ? 'Could not copy.' : ''}
      </span>
    </span>
  );
}
