'use client';

import { ENVIRONMENT_LABEL } from '../../../../_components/ui';
import styles from './impact.module.css';
import type { Impact } from './use-impact-run';

export const WINDOW_LABEL = { '24h': 'the last 24 hours', '7d': 'the last 7 days', '30d': 'the last 30 days' } as const;

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** Quotes by what the new prices do to them, as tiles a person takes in at a glance. */
export function ImpactCounts({ impact }: { impact: Impact }) {
  const { counts } = impact;
  const stop = counts.newlyFailed + counts.newlyRequiresInput;
  const tiles = [
    { key: 'higher', label: 'Cost more', value: counts.higher, tone: styles.up },
    { key: 'lower', label: 'Cost less', value: counts.lower, tone: styles.down },
    { key: 'unchanged', label: 'Unchanged', value: counts.unchanged, tone: '' },
    {
      key: 'stop',
      label: 'Stop getting a price',
      value: stop,
      tone: stop > 0 ? styles.bad : '',
      note: stop > 0 ? `${counts.newlyRequiresInput.toLocaleString()} need more answers, ${counts.newlyFailed.toLocaleString()} fail` : undefined,
    },
    { key: 'nowPriced', label: 'Get a price now', value: counts.nowPriced, tone: '' },
  ];
  return (
    <ul className={styles.tiles} aria-label="Quotes by what happens to their price">
      {tiles.map((t) => (
        <li key={t.key} className={`${styles.tile} ${t.tone}`} data-testid={`impact-${t.key}`}>
          <span className={styles.tileValue}>{t.value.toLocaleString()}</span>
          <span className={styles.tileLabel}>{t.label}</span>
          {t.note && <span className={styles.tileNote}>{t.note}</span>}
        </li>
      ))}
    </ul>
  );
}

/** One sentence: what was re-priced, and against what. */
export function ImpactScope({ impact, window }: { impact: Impact; window: keyof typeof WINDOW_LABEL }) {
  const versions = impact.baselineVersions
    .map((b) => `${b.number === null ? 'no published version' : `v${b.number}`} (${count(b.quotes, 'quote', 'quotes')})`)
    .join(', ');
  return (
    <p style={{ margin: '0.5rem 0' }}>
      {count(impact.quotes, 'quote', 'quotes')} ({count(impact.requests, 'distinct request', 'distinct requests')}) in{' '}
      {ENVIRONMENT_LABEL[impact.environment]} in {WINDOW_LABEL[window]}, re-priced with{' '}
      {impact.candidate.source === 'version' ? `version ${impact.candidate.number}` : 'this draft'} and compared with the price
      customers were given{versions ? ` by ${versions}` : ''}.
    </p>
  );
}

/** What the business's publishing safeguard makes of these figures. */
export function GuardNote({ impact }: { impact: Impact }) {
  const { guard } = impact;
  if (impact.quotes === 0) return null;
  const share = `${guard.significantlyChangedPercent}% of these quotes (${guard.significantlyChangedQuotes.toLocaleString()}) change by more than ${guard.changePercent}% or stop getting a price`;
  return guard.requiresConfirmation ? (
    <p className="warning" data-testid="impact-guard">
      <strong>{share}.</strong> That is above the safeguard&apos;s {guard.sharePercent}%, so publishing to Live asks you to type a confirmation.
    </p>
  ) : (
    <p className="muted" data-testid="impact-guard">
      {share}: within the safeguard&apos;s {guard.sharePercent}%.
    </p>
  );
}

export function ImpactProgress({ progress }: { progress: { done: number; total: number } | null }) {
  const label = progress && progress.total > 0 ? `Re-pricing ${progress.done.toLocaleString()} of ${progress.total.toLocaleString()} quotes…` : 'Reading recent quotes…';
  return (
    <div className={styles.progress} role="status" aria-live="polite">
      <progress value={progress && progress.total > 0 ? progress.done : undefined} max={progress?.total || undefined} aria-label="Impact measured so far" />
      <span className="muted">{label}</span>
    </div>
  );
}
