import type { ApiKeyPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { requireAccountBook } from './account-book';
import { listConnectedBusinesses } from './store';

/** GET /v1/accounts/{id}/quote-spec: what can be asked, by id and label, for the published version. */
export async function getQuoteSpec(ctx: VerbContext<ApiKeyPrincipal>) {
  const [book, businesses] = await Promise.all([requireAccountBook(ctx), listConnectedBusinesses(ctx.db, ctx.principal.projectId)]);
  const { artifact } = book.version.book;
  const factors = new Map(artifact.factors.map((f) => [f.id, f]));
  return {
    object: 'quote_spec' as const,
    book: { id: book.version.bookId, key: book.key, version: book.version.number, currency: artifact.currency, artifact_hash: book.version.artifactHash },
    businesses,
    autonomy: artifact.autonomy,
    services: artifact.offerings.map((o) => ({
      service: o.id,
      label: o.label,
      description: o.description ?? null,
      selections: o.factorIds.map((id) => {
        const f = factors.get(id)!;
        return {
          selection: f.id,
          label: f.label,
          required: f.required,
          unknown_allowed: f.whenUnknown.action === 'assume',
          options: f.options.map((option) => ({ value: option.id, label: option.label, requires_inspection: option.requiresInspection ?? false })),
        };
      }),
    })),
    conditions: artifact.conditions,
  };
}
