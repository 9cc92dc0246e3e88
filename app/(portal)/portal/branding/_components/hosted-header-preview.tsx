'use client';

import { useState } from 'react';
import { isHexColour, readableTextOn } from '@/lib/businesses/brand-palette';
import styles from './branding.module.css';

export type BrandingDraft = {
  displayName: string;
  logoUrl: string;
  primaryColor: string;
  accentColor: string;
  /** The button under a price; both empty for none. */
  nextStepLabel: string;
  nextStepUrl: string;
  /** The sentence a customer agrees to when accepting a quote; empty for the default. */
  acceptanceConsent: string;
};

const isHttpsUrl = (value: string) => {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
};

/** How the top of the hosted quote page will look with these (unsaved) settings. */
export function HostedHeaderPreview({ draft, fallbackColours }: { draft: BrandingDraft; fallbackColours: { primary: string; accent: string } }) {
  const primary = isHexColour(draft.primaryColor) ? draft.primaryColor : fallbackColours.primary;
  const accent = isHexColour(draft.accentColor) ? draft.accentColor : fallbackColours.accent;
  const logoUrl = draft.logoUrl.trim();
  const [failedLogo, setFailedLogo] = useState<string | null>(null);
  const showLogo = isHttpsUrl(logoUrl) && failedLogo !== logoUrl;

  return (
    <figure className={styles.preview} aria-labelledby="preview-caption">
      <div className={styles.previewHeader} style={{ background: primary, color: readableTextOn(primary) }} data-testid="preview-header">
        {showLogo && (
          <img src={logoUrl} alt="" className={styles.previewLogo} onError={() => setFailedLogo(logoUrl)} />
        )}
        <span className={styles.previewName}>{draft.displayName.trim() || 'Your business'}</span>
      </div>
      <div className={styles.previewBody}>
        <div className={styles.previewLine} />
        <div className={styles.previewLine} style={{ width: '60%' }} />
        <span className={styles.previewButton} style={{ background: accent, color: readableTextOn(accent) }}>
          Get my price
        </span>
        {draft.nextStepLabel.trim() && (
          <span className={styles.previewButton} style={{ background: primary, color: readableTextOn(primary), marginLeft: '0.5rem' }} data-testid="preview-next-step">
            {draft.nextStepLabel.trim()}
          </span>
        )}
      </div>
      <figcaption id="preview-caption" className="muted">
        Preview of your hosted quote page header.
        {failedLogo === logoUrl && logoUrl && ' The logo at that address could not be loaded, so customers would see none.'}
      </figcaption>
    </figure>
  );
}
