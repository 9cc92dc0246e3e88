'use client';

import { IntentLink } from '../../../../_components/intent-link';
import { HttpStatus } from '../../../_components/http-status';
import { CompareCheckbox, type ComparePicks } from '../../../_components/compare-picker';
import { CopyId } from '../../../_components/copy-id';
import { EnvironmentBadge } from '../../../_components/ui';
import { hiddenHeading, num, TableHead } from '../../../_components/table-head';
import type { RequestLog } from './use-request-logs';

/**
 * The search results, newest first. `filterHref` builds a link that narrows the search; a
 * request that made a quote can be picked (`picks`) to compare its quote with another.
 */
export function RequestLogTable({ logs, filterHref, picks }: { logs: RequestLog[]; filterHref: (name: string, value: string) => string; picks: ComparePicks }) {
  return (
    <div className="table-scroll">
      <table className="compact cards" aria-label="Requests">
        <TableHead columns={[hiddenHeading('Compare quotes'), 'Time', 'Request', 'Status', 'Caller', num('Latency'), 'Request id', hiddenHeading('Details and quote trace')]} />
        <tbody>
          {logs.map((log) => (
            <tr key={log.requestId}>
              <td>
                {log.quoteIntentId && <CompareCheckbox quoteId={log.quoteIntentId} picks={picks} describedAs={`the quote made by request ${log.requestId}`} />}
              </td>
              <td data-label="Time" style={{ whiteSpace: 'nowrap' }}>
                <LogTime iso={log.createdAt} />
              </td>
              <td className="mono one-line" data-label="Request" title={`${log.method} ${log.path}`} style={{ maxWidth: '18rem' }}>
                {log.method} {log.path}
              </td>
              <td data-label="Status">
                <HttpStatus status={log.status} />
                {log.errorCode && (
                  <span className="mono muted" style={{ fontSize: '0.8rem' }}>
                    {' '}
                    {/* may break after an underscore, so a long code does not widen the table */}
                    {log.errorCode.split('_').flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, `_${part}`]))}
                  </span>
                )}
                {log.testFault && (
                  <div>
                    <span className="badge test" title={`Test-Fault: ${log.testFault}. The answer was injected on request.`}>
                      {log.testFault.startsWith('delay=') ? `injected ${log.testFault}` : 'injected'}
                    </span>
                  </div>
                )}
              </td>
              <td data-label="Caller" style={{ minWidth: '9rem' }}>
                <EnvironmentBadge environment={log.environment} /> <Caller log={log} filterHref={filterHref} />
              </td>
              <td className="num" data-label="Latency">{log.latencyMs} ms</td>
              <td data-label="Request id" style={{ fontSize: '0.8rem' }}>
                <CopyId id={log.requestId} label="request id" />
              </td>
              <td>
                <IntentLink href={`/portal/request-logs/${log.requestId}`} aria-label={`Details of request ${log.requestId}`}>
                  Details
                </IntentLink>
                {log.quoteIntentId && (
                  <>
                    {' · '}
                    <IntentLink href={`/portal/traces/${log.quoteIntentId}`} aria-label={`Trace the quote made by request ${log.requestId}`}>
                      Trace
                    </IntentLink>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Who made the request: a key by its name (a link to its requests), a member by email, or nobody signed in. */
export function Caller({ log, filterHref }: { log: RequestLog; filterHref: (name: string, value: string) => string }) {
  if (log.caller === 'member') {
    return (
      <span title={log.memberEmail ?? undefined}>
        {log.portal ? 'Portal' : 'Member'}
        {log.memberEmail && <span className="muted"> · {shortened(log.memberEmail)}</span>}
      </span>
    );
  }
  if (log.caller === 'anonymous' || !log.apiKeyId) return <>Anonymous</>;
  return (
    <>
      {log.caller === 'account_key' ? 'Account key' : 'Key'}{' '}
      <IntentLink href={filterHref('apiKeyId', log.apiKeyId)} title={`Only requests with key ${log.apiKeyName ?? log.apiKeyId}`}>
        {log.apiKeyName ? shortened(log.apiKeyName) : `…${log.apiKeyId.slice(-6)}`}
      </IntentLink>
    </>
  );
}

/** A name or email cut to fit the column (the whole of it is in the title). */
function shortened(text: string): string {
  return text.length > 22 ? `${text.slice(0, 20)}…` : text;
}

/** Time of day (what a search scans for), the date when it is not today; the full instant on hover. */
function LogTime({ iso }: { iso: string }) {
  const at = new Date(iso);
  const today = at.toDateString() === new Date().toDateString();
  return (
    <time dateTime={iso} title={at.toString()}>
      {today ? '' : `${at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} `}
      {at.toLocaleTimeString(undefined, { timeStyle: 'medium' })}
    </time>
  );
}
