'use client';

import Link from 'next/link';
import { HttpStatus } from '../../../_components/http-status';
import { formatTime } from '../../../_components/ui';
import type { QuoteTrace } from './use-quote-trace';

/** What the customer asked for: the offering and each answer, `null` meaning "unknown". */
export function QuoteInputs({ inputs }: { inputs: QuoteTrace['quoteIntent']['inputs'] }) {
  const answers = Object.entries(inputs.factors);
  return (
    <dl className="facts" aria-label="Inputs">
      <dt>Offering</dt>
      <dd className="mono">{inputs.offeringId}</dd>
      {answers.length === 0 ? (
        <>
          <dt>Answers</dt>
          <dd className="muted">none given</dd>
        </>
      ) : (
        answers.map(([factorId, optionId]) => (
          <div key={factorId} style={{ display: 'contents' }}>
            <dt className="mono">{factorId}</dt>
            <dd className="mono">{optionId ?? <span className="muted">unknown</span>}</dd>
          </div>
        ))
      )}
    </dl>
  );
}

/** The immutable book version the price came from; every quote pins one. */
export function PinnedBookVersion({ book, version }: { book: QuoteTrace['book']; version: QuoteTrace['bookVersion'] }) {
  return (
    <>
      <dl className="facts" aria-label="Book version">
        <dt>Book</dt>
        <dd>{book.name}</dd>
        <dt>Version</dt>
        <dd>{version ? `v${version.number}` : <span className="muted">none: nothing was published here when the quote was asked for</span>}</dd>
        {version && (
          <>
            <dt>Hash</dt>
            <dd className="mono" style={{ fontSize: '0.8rem' }}>
              {version.artifactHash}
            </dd>
          </>
        )}
      </dl>
      <p style={{ marginBottom: 0 }}>
        <Link href={`/portal/books/${book.id}`}>Open the book</Link>
      </p>
    </>
  );
}

/** The API call that created the quote, and the way back to it in the request log. */
export function CreatingRequest({ request, requestId }: { request: QuoteTrace['request']; requestId: string }) {
  const inLog = `/portal/request-logs?requestId=${encodeURIComponent(requestId)}`;
  if (!request) {
    return (
      <p className="muted" style={{ margin: 0 }}>
        The request log has no entry for request <span className="mono">{requestId}</span> yet.{' '}
        <Link href={inLog}>Search the request log</Link>
      </p>
    );
  }
  return (
    <>
      <dl className="facts" aria-label="Request">
        <dt>Request</dt>
        <dd className="mono">
          {request.method} {request.path}
        </dd>
        <dt>Status</dt>
        <dd>
          <HttpStatus status={request.status} />
        </dd>
        <dt>Latency</dt>
        <dd>{request.latencyMs} ms</dd>
        <dt>Time</dt>
        <dd>{formatTime(request.createdAt)}</dd>
        <dt>Request id</dt>
        <dd className="mono">{request.requestId}</dd>
        <dt>API key id</dt>
        <dd className="mono">{request.apiKeyId ?? <span className="muted">none ({request.principal})</span>}</dd>
      </dl>
      <p style={{ marginBottom: 0 }}>
        <Link href={inLog}>Show in the request log</Link>
      </p>
    </>
  );
}
