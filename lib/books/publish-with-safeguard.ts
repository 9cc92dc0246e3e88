import type { SessionPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { confirmationPhrase } from './confirmation-phrase';
import {
  IMPACT_WINDOWS,
  PUBLISH_IMPACT_MAX_AGE_MS,
  PUBLISH_IMPACT_WINDOW,
  type Impact,
  type ImpactSummary,
} from './impact-schemas';
import { publishBookVersion, type PublishInput } from './publish-book-version';
import { getBook } from './read-books';
import { runImpact } from './run-impact';

export type PublishRequest = {
  versionId: string;
  environment: 'test' | 'live';
  impactAsOf?: string;
  confirmation?: string;
};

/**
 * POST /v1/books/{id}/publications (`books:publish`, checked by the route). Measures the
 * version's impact on the last 7 days of the environment's quotes (up to `impactAsOf`, the
 * moment the figures shown to the member were taken, so that the record keeps those very
 * figures), asks for the typed confirmation on Live when the business's safeguard says so,
 * then publishes with an audit record of who, what and the impact shown.
 */
export async function publishWithSafeguard(
  ctx: VerbContext<SessionPrincipal>,
  { book, request }: { book: { id: string; projectId: string }; request: PublishRequest },
) {
  const approved = await checkPublishSafeguard(ctx, { book, request });
  await publishBookVersion(ctx, approved);
  return getBook(ctx, { bookId: book.id });
}

/**
 * The safeguard alone: measures the impact and asks for the typed confirmation (the refusals
 * above), and answers what `publishBookVersion` records. Promoting an experiment's arm publishes
 * through it too, so a promotion is refused exactly as the publication would be.
 */
export async function checkPublishSafeguard(
  ctx: VerbContext<SessionPrincipal>,
  { book, request }: { book: { id: string; projectId: string }; request: PublishRequest },
): Promise<PublishInput> {
  const { principal, now } = ctx;
  const asOf = impactAsOf(request.impactAsOf, now);
  const measured = await runImpact(ctx, {
    book,
    request: {
      versionId: request.versionId,
      environment: request.environment,
      from: new Date(asOf.getTime() - IMPACT_WINDOWS[PUBLISH_IMPACT_WINDOW]).toISOString(),
      to: asOf.toISOString(),
    },
  });
  // A version always measures: it passed validation when it was made.
  const impact = measured.impact!;
  const phrase = confirmationPhrase(impact.candidate.number!);
  if (request.environment === 'live' && impact.guard.requiresConfirmation && normalise(request.confirmation) !== phrase) {
    const message =
      `Publishing v${impact.candidate.number} to Live would change ${impact.guard.significantlyChangedPercent}% of the last 7 days' quotes ` +
      `by more than ${impact.guard.changePercent}% (the safeguard asks above ${impact.guard.sharePercent}%). Send confirmation "${phrase}" to publish it.`;
    throw new ServiceError('invalid_request', message, {
      details: { fields: { confirmation: [`type "${phrase}" to publish`] }, impact: summaryOf(impact), confirmationPhrase: phrase },
      param: 'confirmation',
    });
  }
  return {
    bookId: book.id,
    versionId: request.versionId,
    environment: request.environment,
    publishedBy: principal.email,
    impact: summaryOf(impact),
    confirmation: request.confirmation?.trim() || undefined,
  };
}

function impactAsOf(value: string | undefined, now: Date): Date {
  if (value === undefined) return now;
  const asOf = new Date(value);
  if (asOf.getTime() > now.getTime() + 60_000 || now.getTime() - asOf.getTime() > PUBLISH_IMPACT_MAX_AGE_MS) {
    throw new ServiceError('invalid_request', 'impactAsOf must be within the last 15 minutes: measure the impact again.', {
      details: { fields: { impactAsOf: ['must be within the last 15 minutes'] } },
      param: 'impactAsOf',
    });
  }
  return asOf;
}

function normalise(text: string | undefined): string {
  return (text ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}

function summaryOf(impact: Impact): ImpactSummary {
  const { environment, window, candidate, baselineVersions, requests, quotes, counts, histogram, guard } = impact;
  return { environment, window, candidate, baselineVersions, requests, quotes, counts, histogram, guard };
}
