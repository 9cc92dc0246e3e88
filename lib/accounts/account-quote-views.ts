import type { VerbContext } from '../context/verb-context';
import { withCompiledBook } from '../books/published-version';
import type { AccountBook } from './account-book';
import type { AccountQuoteView, ProducedQuote, ReviewDecision, SimulationRequest } from './account-schemas';
import { simulateServices } from './simulate-services';
import { findPeople, findVersionsForViews, type AccountQuoteRecord } from './store';

/** An account quote whose price has passed its validity (docs/quote-lifecycle.md). */
export function isExpired(quote: { expiresAt: Date | null }, now: Date): boolean {
  return quote.expiresAt !== null && quote.expiresAt <= now;
}

/**
 * Stored account quotes as their business sees them: each with its request priced again by the
 * pinned version (deterministic, so the simulation is the one the disposition came from), its
 * review with the reviewer's name, and whether its price still holds at `now`.
 */
export async function toAccountQuoteViews(
  { db, now }: Pick<VerbContext, 'db' | 'now'>,
  records: AccountQuoteRecord[],
  environmentOf: (environmentId: string) => 'test' | 'live',
): Promise<AccountQuoteView[]> {
  const distinct = <T>(values: (T | null)[]) => [...new Set(values.filter((v): v is T => v !== null))];
  const [versions, people] = await Promise.all([
    findVersionsForViews(db, distinct(records.map((r) => r.bookVersionId))),
    findPeople(db, distinct(records.map((r) => r.reviewedBy))),
  ]);
  const books = new Map<string, AccountBook>(
    await Promise.all(
      versions.map(async ({ book, ...version }) => [version.id, { key: book.key, version: await withCompiledBook(db, version) }] as const),
    ),
  );
  const personById = new Map(people.map((p) => [p.id, p]));
  return records.map((record) => {
    const book = record.bookVersionId ? books.get(record.bookVersionId) : undefined;
    const request = (record.request as SimulationRequest | null) ?? null;
    const signedQuote = record.response as ProducedQuote;
    const commitment = record.commitments[0];
    return {
      id: record.id,
      environment: environmentOf(record.environmentId),
      state: record.state as AccountQuoteView['state'],
      disposition: record.disposition as AccountQuoteView['disposition'],
      total: { lowMinor: Number(record.lowCents ?? 0), highMinor: Number(record.highCents ?? 0) },
      currency: signedQuote.currency,
      bookVersion: book ? { id: book.version.id, number: book.version.number } : null,
      createdAt: record.createdAt.toISOString(),
      expiresAt: record.expiresAt?.toISOString() ?? null,
      expired: isExpired(record, now),
      request,
      answers: request && book ? answersOf(book, request) : null,
      simulation: request && book ? simulateServices(book, request) : null,
      review:
        record.reviewDecision && record.reviewedBy && record.reviewedAt
          ? {
              decision: record.reviewDecision as ReviewDecision,
              reason: record.reviewReason,
              reviewedAt: record.reviewedAt.toISOString(),
              reviewedBy: { id: record.reviewedBy, name: personById.get(record.reviewedBy)?.name ?? null, email: personById.get(record.reviewedBy)?.email ?? null },
            }
          : null,
      commitment: commitment ? { id: commitment.id, externalRef: commitment.externalRef, confirmedAt: commitment.confirmedAt.toISOString() } : null,
      signedQuote,
    };
  });
}

/** What was asked, as the pinned version words it: services and options by label (null: unknown to that version). */
function answersOf(book: AccountBook, request: SimulationRequest): NonNullable<AccountQuoteView['answers']> {
  const { artifact } = book.version.book;
  const offerings = new Map(artifact.offerings.map((o) => [o.id, o]));
  const factors = new Map(artifact.factors.map((f) => [f.id, f]));
  return request.services.map(({ service, selections }) => {
    // In the order the offering asks its questions (stored requests come back with keys reordered).
    const asked = offerings.get(service)?.factorIds ?? [];
    const rank = (id: string) => (asked.includes(id) ? asked.indexOf(id) : asked.length);
    const answered = Object.entries(selections).sort(([a], [b]) => rank(a) - rank(b));
    return {
      service,
      label: offerings.get(service)?.label ?? null,
      selections: answered.map(([selection, value]) => {
        const factor = factors.get(selection);
        return {
          selection,
          label: factor?.label ?? null,
          value,
          valueLabel: value === null ? null : (factor?.options.find((o) => o.id === value)?.label ?? null),
        };
      }),
    };
  });
}
