import type { CSSProperties } from 'react';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { brandPalette } from '@/lib/businesses/brand-palette';
import { getQuoteSurface } from '@/lib/businesses/get-quote-surface';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors/service-error';
import { QuoteForm } from './_components/quote-form';
import './hosted-page.css';

// Branding and publications change at any time; every request reads them afresh.
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ businessId: string }> };

/** The business's quote surface, or null when it offers no quotes here (one query per request). */
const loadQuoteSurface = cache(async (businessId: string) => {
  if (!z.uuid().safeParse(businessId).success) return null;
  try {
    return await getQuoteSurface(getDb(), businessId);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'quote_surface_unavailable') return null;
    throw error;
  }
});

export async function generateMetadata({ params }: Props) {
  const surface = await loadQuoteSurface((await params).businessId);
  return { title: surface ? `Get a price — ${surface.branding.displayName}` : 'Quotes not available' };
}

export default async function HostedQuotePage({ params }: Props) {
  const surface = await loadQuoteSurface((await params).businessId);
  if (!surface) notFound();
  const { branding } = surface;
  return (
    <div className="hosted" style={brandPalette(branding) as CSSProperties}>
      <header className="hosted-header">
        <div className="hosted-header-inner">
          {branding.logoUrl && <img className="hosted-logo" src={branding.logoUrl} alt="" />}
          <span className="hosted-name">{branding.displayName}</span>
        </div>
      </header>
      <main className="hosted-main">
        <h1>Get your price</h1>
        <p className="hosted-intro">Tell us about the job and we&apos;ll work out your price straight away.</p>
        <QuoteForm businessId={surface.businessId} businessName={branding.displayName} offerings={surface.offerings} />
      </main>
      <footer className="hosted-footer">Prices come from the current price list of {branding.displayName}.</footer>
    </div>
  );
}
