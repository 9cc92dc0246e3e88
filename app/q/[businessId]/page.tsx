import { systemContext } from '@/lib/context/verb-context';
import type { CSSProperties } from 'react';
import { cache } from 'react';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { brandPalette } from '@/lib/businesses/brand-palette';
import { getQuoteSurface, offeringsOf } from '@/lib/businesses/get-quote-surface';
import { compiled } from '@/lib/books/published-version';
import { getPublicQuote } from '@/lib/quotes/get-public-quote';
import { getAcceptanceState } from '@/lib/leads/get-acceptance-state';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors/service-error';
import { QuoteForm } from './_components/quote-form';
import './hosted-page.css';

// Branding and publications change at any time; every request reads them afresh.
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ businessId: string }>; searchParams: Promise<{ quote?: string | string[] }> };

/** The business's quote surface, or null when it offers no quotes here (one query per request). */
const loadQuoteSurface = cache(async (businessId: string) => {
  if (!z.uuid().safeParse(businessId).success) return null;
  try {
    return await getQuoteSurface(systemContext(getDb(), 'hosted-quote-page'), { businessId });
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'quote_surface_unavailable') return null;
    throw error;
  }
});

export async function generateMetadata({ params }: Props) {
  const surface = await loadQuoteSurface((await params).businessId);
  return {
    title: surface ? `Get a price — ${surface.branding.displayName}` : 'Quotes not available',
    description: surface
      ? `Answer a few questions and get a price from ${surface.branding.displayName} at once, with how it is made up.`
      : 'This business does not take quotes here at the moment.',
    // The business's logo is the tab's icon on its own page.
    ...(surface?.branding.logoUrl ? { icons: { icon: surface.branding.logoUrl } } : {}),
  };
}

/**
 * The quote a customer's link names (`?quote=<id>`), with the questions as the version that priced
 * it asked them; 'unknown' when the link names no public quote of this business.
 */
async function loadLinkedQuote(businessId: string, quoteId: string | string[] | undefined) {
  if (quoteId === undefined) return null;
  if (typeof quoteId !== 'string' || !z.uuid().safeParse(quoteId).success) return 'unknown';
  const db = getDb();
  try {
    const ctx = systemContext(db, 'hosted-quote-page');
    const { result, businessId: owner } = await getPublicQuote(ctx, { quoteIntentId: quoteId });
    if (owner !== businessId) return 'unknown';
    const versionId = result.quoteIntent.bookVersionId;
    const [offerings, acceptance] = await Promise.all([
      versionId ? compiled(db, versionId).then((book) => offeringsOf(book.artifact)) : [],
      result.quoteReceipt.outcome === 'succeeded' ? getAcceptanceState(ctx, { quoteIntentId: quoteId }) : null,
    ]);
    return { result, offering: offerings.find((o) => o.id === result.quoteIntent.inputs.offeringId), acceptance };
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'not_found') return 'unknown';
    throw error;
  }
}

export default async function HostedQuotePage({ params, searchParams }: Props) {
  const surface = await loadQuoteSurface((await params).businessId);
  if (!surface) notFound();
  const { branding } = surface;
  const linked = await loadLinkedQuote(surface.businessId, (await searchParams).quote);
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
        {linked === 'unknown' && (
          <p className="warning" role="status">
            That quote link doesn&apos;t match a price from {branding.displayName}. Ask for a new price below.
          </p>
        )}
        <QuoteForm
          businessId={surface.businessId}
          businessName={branding.displayName}
          offerings={surface.offerings}
          nextStep={branding.nextStep}
          linkedQuote={linked === 'unknown' ? null : linked}
        />
      </main>
      <footer className="hosted-footer">Prices come from the current price list of {branding.displayName}.</footer>
    </div>
  );
}
