import type { ApiKeyPrincipal, SessionPrincipal } from '../auth/principal';
import { compiled } from '../books/published-version';
import { environmentKinds, versionNumbers } from '../books/store';
import { readFresh, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import type { QuoteComputation, QuoteInputs } from '../pricing';
import type { QuoteComparison } from './comparison-schemas';
import { explainDifference, type QuoteSide } from './explain-difference';
import { findInspectableQuote } from './quote-access';
import type { StoredQuote } from './store';

/**
 * GET /v1/quote-intents/{id}/comparison?with={withId}: why quote `withId` (B) is priced as it is
 * next to quote A (found by the route's authorization with findInspectableQuote). The caller must
 * be able to inspect both (404 otherwise, as for one), and both must be quotes of one business.
 * The explanation itself is explain-difference.ts.
 */
export async function compareQuotes(
  ctx: VerbContext<SessionPrincipal | ApiKeyPrincipal>,
  { quote: a, withId }: { quote: StoredQuote; withId: string },
): Promise<QuoteComparison> {
  const b = await findInspectableQuote(ctx, withId);
  const businessId = a.intent.businessId;
  if (businessId === null || businessId !== b.intent.businessId) {
    const message = 'Only two quotes of one business can be compared: these belong to different businesses.';
    throw new ServiceError('invalid_request', message, { param: 'with', details: { fields: { with: ['must be a quote of the same business'] } } });
  }

  const versionIds = [...new Set([a.intent.bookVersionId, b.intent.bookVersionId].filter((v) => v !== null))];
  const environmentIds = [a.intent.environmentId, b.intent.environmentId];
  // From the read replica when there is one; from the primary when it lacks any of them yet
  // (a quote found only on the primary may pin a version the replica has not replayed).
  const { value: found } = await readFresh(
    ctx,
    (db) =>
      Promise.all([
        versionNumbers(db, versionIds),
        environmentKinds(db, environmentIds),
        Promise.all(versionIds.map(async (versionId) => [versionId, await compiled(db, versionId).catch(notFoundAsNull)] as const)).then((pairs) => new Map(pairs)),
      ]),
    ([numbers, environments, books]) =>
      versionIds.every((v) => numbers.has(v) && books.get(v)) && environmentIds.every((e) => environments.has(e)),
  );
  const [numbers, environments, books] = found;
  const side = ({ intent, receipt }: StoredQuote): QuoteSide => ({
    quoteIntentId: intent.id,
    createdAt: intent.createdAt.toISOString(),
    environment: environments.get(intent.environmentId)!,
    source: intent.source,
    status: intent.status,
    bookId: intent.bookId,
    inputs: intent.inputs as QuoteInputs,
    version: intent.bookVersionId
      ? { id: intent.bookVersionId, number: numbers.get(intent.bookVersionId)!, book: books.get(intent.bookVersionId)! }
      : null,
    receipt: {
      outcome: receipt.outcome,
      computation: (receipt.computation as QuoteComputation | null) ?? null,
      missingInputs: receipt.missingInputs,
      failure: (receipt.failure as QuoteSide['receipt']['failure']) ?? null,
    },
  });
  return explainDifference(businessId, side(a), side(b));
}

/** Prisma's "no such row" (P2025, from findUniqueOrThrow) as null; anything else as it was. */
function notFoundAsNull(error: unknown): null {
  if ((error as { code?: unknown }).code === 'P2025') return null;
  throw error;
}
