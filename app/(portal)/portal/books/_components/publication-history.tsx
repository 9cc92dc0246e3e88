'use client';

import { useId } from 'react';
import { EnvironmentBadge, ErrorMessage, formatTime, Loading } from '../../../_components/ui';
import { TableHead } from '../../../_components/table-head';
import { usePublicationRecords, type PublicationRecord } from './book-queries';

/** The audit trail: every publication, who made it, and the impact they were shown. */
export function PublicationHistory({ bookId }: { bookId: string }) {
  const id = useId();
  const records = usePublicationRecords(bookId);
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Publication history</h2>
      {records.isPending ? (
        <Loading what="the publication history" />
      ) : records.isError ? (
        <ErrorMessage error={records.error} />
      ) : records.data.publications.length === 0 ? (
        <p className="muted card">Nothing has been published from this book yet.</p>
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <table className="cards" aria-label="Publication history">
            <TableHead columns={['When', 'Where', 'Version', 'By', 'Impact shown (last 7 days)']} />
            <tbody>
              {records.data.publications.map((r) => (
                <tr key={r.id}>
                  <td data-label="When">{formatTime(r.publishedAt)}</td>
                  <td data-label="Where">
                    <EnvironmentBadge environment={r.environment} />
                  </td>
                  <td data-label="Version">
                    {r.previousVersion ? `v${r.previousVersion.number} → ` : ''}
                    <strong>v{r.version.number}</strong>
                  </td>
                  <td data-label="By" style={{ overflowWrap: 'anywhere' }}>{r.publishedBy ?? <span className="muted">the system</span>}</td>
                  <td data-label="Impact shown">
                    <ImpactLine record={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ImpactLine({ record }: { record: PublicationRecord }) {
  const impact = record.impact;
  if (!impact) return <span className="muted">not measured</span>;
  if (impact.quotes === 0) return <span className="muted">no quotes to compare</span>;
  const { counts, guard } = impact;
  const stop = counts.newlyFailed + counts.newlyRequiresInput;
  return (
    <span>
      {impact.quotes.toLocaleString()} quotes: {counts.higher.toLocaleString()} up, {counts.lower.toLocaleString()} down
      {stop > 0 ? `, ${stop.toLocaleString()} stop pricing` : ''}; {guard.significantlyChangedPercent}% moved more than {guard.changePercent}%
      {record.confirmation && (
        <div className="muted" style={{ fontSize: '0.85rem' }}>
          Confirmed by typing “{record.confirmation}”
        </div>
      )}
    </span>
  );
}
