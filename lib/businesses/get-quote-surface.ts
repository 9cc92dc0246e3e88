import { findPublishedVersion } from '../books/published-version';
import type { DbOrTx } from '../db/client';
import { resolvePublicQuoteScope } from '../quotes/resolve-quote-scope';

/**
 * What the hosted quote page may show before a quote is made: the business's branding and the
 * Live book's offerings and factors, by id and label only — never a price.
 * Throws `quote_surface_unavailable` exactly when POST /v1/public_quotes would.
 */
export async function getQuoteSurface(db: DbOrTx, businessId: string) {
  const scope = await resolvePublicQuoteScope(db, businessId);
  const [business, version] = await Promise.all([
    db.business.findUniqueOrThrow({
      where: { id: businessId },
      select: { name: true, displayName: true, logoUrl: true, primaryColor: true, accentColor: true },
    }),
    findPublishedVersion(db, scope.bookId, scope.environmentId),
  ]);
  if (!version) return null;
  const { artifact } = version.book;
  const factors = new Map(artifact.factors.map((f) => [f.id, f]));
  return {
    businessId,
    branding: {
      displayName: business.displayName ?? business.name,
      logoUrl: business.logoUrl,
      primaryColor: business.primaryColor ?? '#1d4ed8',
      accentColor: business.accentColor ?? '#f59e0b',
    },
    offerings: artifact.offerings.map((o) => ({
      id: o.id,
      label: o.label,
      description: o.description ?? null,
      factors: o.factorIds.map((id) => {
        const f = factors.get(id)!;
        return {
          id: f.id,
          label: f.label,
          required: f.required,
          unknownAllowed: f.whenUnknown.action === 'assume',
          options: f.options.map((option) => ({ id: option.id, label: option.label })),
        };
      }),
    })),
  };
}

export type QuoteSurface = NonNullable<Awaited<ReturnType<typeof getQuoteSurface>>>;
