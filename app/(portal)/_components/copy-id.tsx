'use client';

import { useState } from 'react';

/**
 * A long id shown short, whole on hover, with a button that copies it whole. Short is its first
 * characters, or its last for a UUIDv7 (request ids), whose first characters are its time and
 * alike for every request of the same minutes.
 */
export function CopyId({ id, label = 'id', chars = 8 }: { id: string; label?: string; chars?: number }) {
  const timeOrdered = /^[0-9a-f]{8}-[0-9a-f]{4}-7/i.test(id);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () =>
    navigator.clipboard.writeText(id).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <span className="copy-id">
      <code title={id}>{id.length <= chars + 1 ? id : timeOrdered ? `…${id.slice(-chars)}` : `${id.slice(0, chars)}…`}</code>
      <button type="button" className="copy-button" onClick={() => void copy()} aria-label={`Copy ${label} ${id}`} title={`Copy the whole ${label}`}>
        {state === 'copied' ? '✓' : 'Copy'}
      </button>
      <span className="sr-only" role="status">
        {state === 'copied' ? `Copied ${label}.` : state === 'failed' ? 'Could not copy.' : ''}
      </span>
    </span>
  );
}
