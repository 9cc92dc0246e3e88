'use client';

import type { ReactNode } from 'react';
import { friendlyError } from './api';

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ error }: { error: unknown }) {
  return (
    <p className="error" role="alert">
      {friendlyError(error)}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="muted card">{children}</p>;
}

/** Minor units as money, in the currency's own format (USD 12345 -> $123.45). */
export function formatMoney(amountMinor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amountMinor / 10 ** digits);
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function EnvironmentBadge({ environment }: { environment: 'test' | 'live' | null }) {
  if (!environment) return <span className="badge">—</span>;
  return <span className={`badge ${environment}`}>{environment === 'live' ? 'Live' : 'Test'}</span>;
}
