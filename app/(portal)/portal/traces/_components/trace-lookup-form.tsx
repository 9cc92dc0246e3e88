'use client';

import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';

/** "Quote id or request id" → the trace page; the trace route accepts either. */
export function TraceLookupForm({ initialId = '' }: { initialId?: string }) {
  const router = useRouter();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const id = String(new FormData(event.currentTarget).get('id') ?? '').trim();
    if (id) router.push(`/portal/traces/${encodeURIComponent(id)}`);
  }
  return (
    <form className="card" role="search" aria-label="Find a quote trace" onSubmit={submit}>
      <div className="field">
        <label htmlFor="trace-id">Quote id or request id</label>
        <div className="row">
          <input id="trace-id" name="id" className="mono" required defaultValue={initialId} autoComplete="off" style={{ flex: '1 1 24rem' }} />
          <button type="submit" className="primary">
            Trace
          </button>
        </div>
        <span className="hint">
          The quote&apos;s id, or the <code>x-request-id</code> of the request that created it.
        </span>
      </div>
    </form>
  );
}
