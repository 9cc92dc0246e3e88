'use client';

import { HttpStatus } from '../../../_components/http-status';
import { formatTime } from '../../../_components/ui';
import { num, TableHead } from '../../../_components/table-head';
import type { Attempt } from './types';
import styles from './webhooks.module.css';

/** Every attempt of one delivery, oldest first: when, what the endpoint answered, how fast. */
export function AttemptHistory({ attempts, label }: { attempts: Attempt[]; label: string }) {
  if (attempts.length === 0) return <p className="muted" style={{ margin: 0 }}>No attempts yet.</p>;
  return (
    <div className="table-scroll">
      <table className="compact cards" aria-label={label}>
        <TableHead columns={[num('#'), 'Time', 'Answer', num('Latency'), 'Error', 'Response']} />
        <tbody>
          {attempts.map((attempt) => (
            <tr key={attempt.number}>
              <td className="num" data-label="#">{attempt.number}</td>
              <td className={styles.nowrap} data-label="Time">{formatTime(attempt.startedAt)}</td>
              <td data-label="Answer">
                <AttemptAnswer attempt={attempt} />
              </td>
              <td className={`num ${styles.nowrap}`} data-label="Latency">
                {attempt.latencyMs === null ? <span className="muted">—</span> : `${attempt.latencyMs} ms`}
              </td>
              <td data-label="Error">{attempt.error ?? <span className="muted">—</span>}</td>
              <td data-label="Response">
                {attempt.responseExcerpt ? (
                  <pre className={`mono ${styles.excerpt}`}>{attempt.responseExcerpt}</pre>
                ) : (
                  <span className="muted">empty</span>
                )}
                {(attempt.requestHeaders || attempt.responseHeaders) && (
                  <details>
                    <summary>Headers</summary>
                    {attempt.requestHeaders && <Headers title="Sent" headers={attempt.requestHeaders} />}
                    {attempt.responseHeaders && <Headers title="Answered" headers={attempt.responseHeaders} />}
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * What the endpoint answered; an attempt recorded before its send shows it is waiting, and one
 * whose process stopped first says no answer was recorded (its Error says why).
 */
function AttemptAnswer({ attempt }: { attempt: Attempt }) {
  if (attempt.state === 'sending') return <span className="muted">waiting for an answer</span>;
  if (attempt.state === 'lost') return <span className="muted">none recorded</span>;
  if (attempt.responseStatus === null) return <span className="muted">none</span>;
  return <HttpStatus status={attempt.responseStatus} />;
}

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  return (
    <>
      <div className="muted" style={{ fontSize: '0.8rem', marginTop: '0.3rem' }}>
        {title}
      </div>
      <pre className={`mono ${styles.excerpt}`} aria-label={`${title} headers`}>
        {Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')}
      </pre>
    </>
  );
}
