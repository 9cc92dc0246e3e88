import { findPublishedVersion } from '../books/published-version';
import type { VerbContext } from '../context/verb-context';
import { resolvePublicQuoteScope } from '../quotes/resolve-quote-scope';
import type { BookArtifact } from '../pricing';
import { consentSentence } from './acceptance-consent';
import { findBranding } from './store';

/**
 * What the hosted quote page may show before a quote is made: the business's branding and the
 * Live book's offerings and factors, by id and label only — never a price.
 * Throws `quote_surface_unavailable` exactly when POST /v1/public_quotes would.
 */
export async function getQuoteSurface({ db }: VerbContext, { businessId }: { businessId: string }) {
  const scope = await resolvePublicQuoteScope(db, businessId);
  const [business, version] = await Promise.all([
    findBranding(db, businessId),
    findPublishedVersion(db, scope.bookId, scope.environmentId),
  ]);
  if (!version) return null;
  return {
    businessId,
    branding: {
      displayName: business.displayName ?? business.name,
      logoUrl: business.logoUrl,
      primaryColor: business.primaryColor ?? '#1d4ed8',
      accentColor: business.accentColor ?? '#f59e0b',
      nextStep: business.nextStepLabel && business.nextStepUrl ? { label: business.nextStepLabel, url: business.nextStepUrl } : null,
      acceptanceConsent: consentSentence(business),
    },
    offerings: offeringsOf(version.book.artifact),
  };
}

/**
 * A book's offerings and their questions as a customer sees them: ids, labels and, for "not
 * sure", the answer the book prices with; never a price.
 */
export function offeringsOf(artifact: BookArtifact) {
  const factors = new Map(artifact.factors.map((f) => [f.id, f]));
  return artifact.offerings.map((o) => ({
    id: o.id,
    label: o.label,
    description: o.description ?? null,
    factors: o.factorIds.map((id) => {
      const f = factors.get(id)!;
      const assumed = f.whenUnknown.action === 'assume' ? (f.whenUnknown as { optionId: string }).optionId : null;
      return {
        id: f.id,
        label: f.label,
        required: f.required,
        unknownAllowed: assumed !== null,
        /** The answer "not sure" is priced as, when the book says so. */
        assumedOptionId: assumed,
        options: f.options.map((option) => ({ id: option.id, label: option.label })),
      };
    }),
  }));
}

export type QuoteSurface = NonNullable<Awaited<ReturnType<typeof getQuoteSurface>>>;
