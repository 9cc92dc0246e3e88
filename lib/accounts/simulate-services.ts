import { MAX_COMBINATIONS, MAX_EVALUATIONS_PER_REQUEST, evaluateRange, type ServiceRange } from '../pricing/simulate';
import type { AccountBook } from './account-book';
import type { Simulation, SimulationRequest } from './account-schemas';

/**
 * Prices every requested service against one published version, exactly (ranges where answers
 * are unknown), and says what the result is worth: the decision (priced / needs_input /
 * failed) and the pricing mode (instant / quote / unavailable). With nothing published the
 * callers answer 404 before getting here (requireAccountBook).
 */
export function simulateServices(book: AccountBook, request: SimulationRequest): Simulation {
  const { artifact } = book.version.book;
  let budget = MAX_EVALUATIONS_PER_REQUEST;
  const results = request.services.map((s) => {
    const range = evaluateRange(book.version.book, s.service, s.selections, Math.min(MAX_COMBINATIONS, budget));
    if (range.status === 'priced') budget -= range.combinations;
    return { service: s.service, range };
  });
  const priced = results.filter((r): r is { service: string; range: Extract<ServiceRange, { status: 'priced' }> } => r.range.status === 'priced');
  const failures = results.filter((r) => r.range.status === 'failed');
  const hardFailure = failures.find((r) => r.range.status === 'failed' && r.range.code !== 'too_many_unknowns');
  const missingInputs = results.flatMap(({ service, range }) =>
    range.missing.map((m) => ({ service, selection: m.factor, label: m.label, reason: m.reason, options: m.options })),
  );
  const decision: Simulation['decision'] = hardFailure ? 'failed' : failures.length > 0 || missingInputs.length > 0 ? 'needs_input' : 'priced';
  const certain = priced.flatMap((r) => r.range.inspections);
  const possible = priced.flatMap((r) => r.range.possibleInspections);
  const pricingMode: Simulation['pricing_mode'] =
    decision === 'failed' ? 'unavailable' : decision === 'needs_input' || certain.length > 0 || possible.length > 0 ? 'quote' : 'instant';

  const low = priced.reduce((sum, r) => sum + r.range.low.totalMinor, 0);
  const high = priced.reduce((sum, r) => sum + r.range.high.totalMinor, 0);
  const reviewReasons: Simulation['review_reasons'] = [];
  if (certain.length > 0) reviewReasons.push({ code: 'inspection_required', message: `A site visit is needed: ${labels(certain)}.` });
  if (possible.length > 0) reviewReasons.push({ code: 'inspection_possible', message: `A site visit may be needed, depending on: ${labels(possible)}.` });
  if (low !== high) reviewReasons.push({ code: 'price_range', message: 'Some answers are unknown, so the price is a range.' });
  if (artifact.autonomy === 'approval_first') reviewReasons.push({ code: 'approval_first', message: 'The business reviews every quote before it is sent.' });
  if (artifact.autonomy === 'observe') reviewReasons.push({ code: 'observe', message: 'The business only observes quotes; none is sent.' });

  return {
    object: 'quote_simulation',
    decision,
    pricing_mode: pricingMode,
    book: { key: book.key, version: book.version.number, currency: artifact.currency, artifact_hash: book.version.artifactHash },
    total: { low_cents: low, high_cents: high, currency: artifact.currency },
    line_items: priced.flatMap(({ service, range }) =>
      range.lineItems.map((item) => ({
        source: item.key === 'base' ? service : `${service}/${item.key}`,
        label: item.label,
        kind: item.kind,
        quantity: 1,
        total: { low_cents: item.low, high_cents: item.high },
      })),
    ),
    missing_inputs: missingInputs,
    review_reasons: reviewReasons,
    inspection:
      certain.length > 0
        ? { kind: 'site_visit', code: 'inspection_required', prompt: `Book a site visit: ${labels(certain)}.` }
        : possible.length > 0
          ? { kind: 'site_visit', code: 'inspection_possible', prompt: `A site visit may be needed: ${labels(possible)}.` }
          : { kind: 'none', code: 'none', prompt: '' },
    derivation: priced.flatMap(({ service, range }) => [
      ...range.low.derivation
        .filter((d) => d.status === 'applied')
        .map((d) => ({ kind: d.phase, label: `${service}: ${d.ruleId ?? d.phase}: ${d.reason}` })),
      ...(range.ranged.length > 0
        ? [{ kind: 'range', label: `${service}: bounded over ${range.combinations} combinations of ${range.ranged.join(', ')}` }]
        : []),
    ]),
    warnings: [
      ...failures.map(({ service, range }) => ({ code: range.status === 'failed' ? range.code : 'failed', message: `${service}: ${range.status === 'failed' ? range.message : ''}` })),
      ...priced.flatMap(({ service, range }) =>
        range.ignored.map((id) => ({ code: 'ignored_selection', message: `${service}: "${id}" is not asked for this service and was ignored.` })),
      ),
    ],
  };
}

function labels(needs: { label: string }[]): string {
  return [...new Set(needs.map((n) => n.label))].join(', ');
}
