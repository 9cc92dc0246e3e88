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

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** The environments, in the order the portal lists them, and how it names them. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export const ENVIRONMENT_LABEL: Record<(typeof ENVIRONMENTS)[number], string> = { test: 'Test', live: 'Live' };

export function EnvironmentBadge({ environment }: { environment: 'test' | 'live' | null }) {
  if (!environment) return <span className="badge">—</span>;
  return <span className={`badge ${environment}`}>{ENVIRONMENT_LABEL[environment]}</span>;
}
