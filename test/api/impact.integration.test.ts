import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { bookArtifactSchema, compileBook, evaluate, type QuoteInputs } from '../../lib/pricing';
import { serviceFetch } from '../support/service-fetch';
import { api } from '../support/api-client';
import { createPerson, createTenant, type Person, type Tenant } from '../../lib/testing/factories';

/** Answers the tests quote with; A is sent once more with its keys in another order. */
const A: QuoteInputs = { offeringId: 'window_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } };
const B: QuoteInputs = { offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } };
const C: QuoteInputs = { offeringId: 'gutter_cleaning', factors: { home_size: 'large', storeys: '3', access: 'difficult' } };
const D: QuoteInputs = { offeringId: 'solar_panel_cleaning', factors: { panel_count: '13_to_24', storeys: '1' } };
const E: QuoteInputs = { offeringId: 'window_cleaning', factors: { home_size: 'small', storeys: null } }; // requires input

/** The demo book with the larger-home surcharge raised from 25% to 40%. */
const dearer = structuredClone(demoBookArtifact);
(dearer.rules[1] as { adjustment: { basisPoints: number } }).adjustment.basisPoints = 4000;
/** The demo book without the "13 to 24 panels" option (the rule that named it keeps the other). */
const fewerOptions = structuredClone(demoBookArtifact);
fewerOptions.factors[5].options.splice(1, 1);
(fewerOptions.rules[3] as { when: { optionIds: string[] }[] }).when[0].optionIds = ['25_plus'];

const total = (artifact: unknown, inputs: QuoteInputs) => {
  const outcome = evaluate(compileBook(bookArtifactSchema.parse(artifact)), inputs);
  if (outcome.outcome !== 'succeeded') throw new Error('expected a price');
  return outcome.computation.totalMinor;
};

describe('POST /v1/books/{bookId}/impact', () => {
  let tenant: Tenant;
  let other: Tenant;
  let publisher: Person;
  let editorOnly: Person;
  let viewer: Person;
  let otherPublisher: Person;
  let newestB: string;
  let started: string;

  const quote = async (t: Tenant, inputs: QuoteInputs) => {
    const res = await api('POST', '/v1/public_quotes', { body: { businessId: t.businessId, ...inputs } });
    expect(res.status).toBe(201);
    return res.body.data.quoteIntent.id as string;
  };
  const impact = (body: Record<string, unknown>, who: Person = publisher, bookId = tenant.bookId) =>
    api('POST', `/v1/books/${bookId}/impact`, { key: who.token, body });

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenant(), createTenant()]);
    [publisher, editorOnly, viewer, otherPublisher] = await Promise.all([
      createPerson(tenant, { permissions: ['books:edit', 'books:publish'] }),
      createPerson(tenant, { permissions: ['books:edit'] }),
      createPerson(tenant, { businessRole: 'viewer' }),
      createPerson(other, { permissions: ['books:edit', 'books:publish'] }),
    ]);
    started = new Date(Date.now() - 1000).toISOString();
    for (const inputs of [A, A, A, B, C, D, E]) await quote(tenant, inputs);
    await quote(tenant, { offeringId: 'window_cleaning', factors: { access: 'easy', storeys: '1', home_size: 'small' } });
    newestB = await quote(tenant, B);
    // The other business quotes the same answers: none of it may count for this book.
    for (const inputs of [B, B, D]) await quote(other, inputs);
    // A Test quote, with the tenant's Test key: Live runs never see it.
    const testQuote = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: { businessId: tenant.businessId, bookId: tenant.bookId, ...B } });
    expect(testQuote.status).toBe(201);
  });

  it('re-prices the distinct requests of the window against a draft with a higher surcharge, exactly', async () => {
    const res = await impact({ artifact: dearer, window: '24h' });
    expect(res.status).toBe(200);
    const result = res.body.data.impact;
    const cBefore = total(demoBookArtifact, C);
    const cAfter = total(dearer, C);
    expect(total(demoBookArtifact, B)).toBe(15_000);
    expect(total(dearer, B)).toBe(16_800); // +12%

    expect(result).toMatchObject({
      bookId: tenant.bookId,
      environment: 'live',
      offeringId: null,
      candidate: { source: 'artifact', versionId: null, number: null, currency: 'USD' },
      baselineVersions: [{ versionId: tenant.versionId, number: 1, quotes: 9 }],
      requests: 5,
      quotes: 9,
      counts: { unchanged: 6, higher: 3, lower: 0, newlyRequiresInput: 0, newlyFailed: 0, nowPriced: 0 },
      requestCounts: { unchanged: 3, higher: 2, lower: 0, newlyRequiresInput: 0, newlyFailed: 0, nowPriced: 0 },
      guard: { changePercent: 10, sharePercent: 10, significantlyChangedQuotes: 2, significantlyChangedPercent: 22.22, requiresConfirmation: true },
    });
    expect(Object.fromEntries(result.histogram.map((b: { bucket: string; quotes: number }) => [b.bucket, b.quotes]))).toEqual({
      down_20_or_more: 0, down_10_to_20: 0, down_2_to_10: 0, within_2: 5, up_2_to_10: 1, up_10_to_20: 2, up_20_or_more: 0,
    });
    expect(cAfter / cBefore - 1).toBeGreaterThan(0.02);
    expect(cAfter / cBefore - 1).toBeLessThan(0.1);
    expect(result.offerings).toEqual([
      {
        offeringId: 'window_cleaning', label: 'Window cleaning', requests: 3, quotes: 7, changedQuotes: 2,
        totalBeforeMinor: 4 * 12_000 + 2 * 15_000, totalAfterMinor: 4 * 12_000 + 2 * 16_800,
        meanChangePercent: 4, medianChangePercent: 0,
      },
      {
        offeringId: 'gutter_cleaning', label: 'Gutter cleaning', requests: 1, quotes: 1, changedQuotes: 1,
        totalBeforeMinor: cBefore, totalAfterMinor: cAfter,
        meanChangePercent: Math.round(((cAfter - cBefore) * 10_000) / cBefore) / 100, medianChangePercent: Math.round(((cAfter - cBefore) * 10_000) / cBefore) / 100,
      },
      {
        offeringId: 'solar_panel_cleaning', label: 'Solar panel cleaning', requests: 1, quotes: 1, changedQuotes: 0,
        totalBeforeMinor: 24_000, totalAfterMinor: 24_000, meanChangePercent: 0, medianChangePercent: 0,
      },
    ]);
    expect(result.movers.map((m: { offeringId: string }) => m.offeringId)).toEqual(['window_cleaning', 'gutter_cleaning']);
    expect(result.movers[0]).toEqual({
      quoteIntentId: newestB,
      quotes: 2,
      offeringId: 'window_cleaning',
      offeringLabel: 'Window cleaning',
      answers: [
        { factorId: 'access', factor: 'Access', optionId: 'easy', option: 'Easy: clear paths, no obstacles' },
        { factorId: 'home_size', factor: 'Home size', optionId: 'medium', option: '3 to 4 bedrooms' },
        { factorId: 'storeys', factor: 'Storeys', optionId: '2', option: 'Two storeys' },
      ],
      change: 'higher',
      changePercent: 12,
      before: { versionNumber: 1, outcome: 'succeeded', totalMinor: 15_000 },
      after: { outcome: 'succeeded', totalMinor: 16_800, missingInputs: [], failure: null },
      differences: [
        { phase: 'scopedModifier', ruleId: 'large_home', label: 'Larger home', before: { status: 'applied', deltaMinor: 3_000 }, after: { status: 'applied', deltaMinor: 4_800 }, deltaChangeMinor: 1_800 },
      ],
    });
    const explained = result.movers[1].differences.reduce((sum: number, d: { deltaChangeMinor: number }) => sum + d.deltaChangeMinor, 0);
    expect(explained).toBe(cAfter - cBefore);

    // "what the published version answered at the time" is the stored receipt
    const stored = await api('GET', `/v1/public_quotes/${newestB}`);
    expect(stored.body.data.quoteReceipt.computation.totalMinor).toBe(result.movers[0].before.totalMinor);
  });

  it('counts a removed option as quotes that stop pricing, with the reason', async () => {
    const res = await impact({ artifact: fewerOptions, window: '24h' });
    const result = res.body.data.impact;
    expect(result.counts).toEqual({ unchanged: 8, higher: 0, lower: 0, newlyRequiresInput: 0, newlyFailed: 1, nowPriced: 0 });
    expect(result.guard).toMatchObject({ significantlyChangedQuotes: 1, significantlyChangedPercent: 11.11, requiresConfirmation: true });
    expect(result.movers).toHaveLength(1);
    expect(result.movers[0]).toMatchObject({
      offeringId: 'solar_panel_cleaning',
      change: 'newly_failed',
      changePercent: null,
      before: { outcome: 'succeeded', totalMinor: 24_000 },
      after: { outcome: 'failed', totalMinor: null, failure: { code: 'unknown_factor_option' } },
      differences: [],
    });
    expect(result.offerings.find((o: { offeringId: string }) => o.offeringId === 'solar_panel_cleaning')).toMatchObject({ totalBeforeMinor: 24_000, totalAfterMinor: 0 });
  });

  it('reports no change for an identical copy of the published version, saved as the draft or created as a version', async () => {
    const copy = JSON.parse(JSON.stringify(demoBookArtifact)) as typeof demoBookArtifact;
    await api('PUT', `/v1/books/${tenant.bookId}/draft`, { key: publisher.token, body: { artifact: copy } });
    const fromDraft = (await impact({ window: '24h' })).body.data.impact;
    expect(fromDraft.candidate.source).toBe('draft');
    expect(fromDraft.counts).toEqual({ unchanged: 9, higher: 0, lower: 0, newlyRequiresInput: 0, newlyFailed: 0, nowPriced: 0 });
    expect(fromDraft.movers).toEqual([]);
    expect(fromDraft.guard.requiresConfirmation).toBe(false);

    const version = await api('POST', `/v1/books/${tenant.bookId}/versions`, { key: publisher.token, body: {} });
    expect(version.status).toBe(201);
    const fromVersion = (await impact({ versionId: version.body.data.version.id, window: '24h' })).body.data.impact;
    expect(fromVersion.candidate).toMatchObject({ source: 'version', number: 2 });
    expect(fromVersion.counts.unchanged).toBe(9);
    expect(fromVersion.histogram.find((b: { bucket: string }) => b.bucket === 'within_2').quotes).toBe(8);
  });

  it('filters by environment, offering and window', async () => {
    const test = (await impact({ artifact: dearer, environment: 'test', window: '24h' })).body.data.impact;
    expect([test.requests, test.quotes, test.counts.higher]).toEqual([1, 1, 1]);

    const solar = (await impact({ artifact: dearer, offeringId: 'solar_panel_cleaning', window: '7d' })).body.data.impact;
    expect([solar.requests, solar.quotes, solar.offerings.length]).toEqual([1, 1, 1]);

    const from = new Date(Date.now() + 60_000).toISOString();
    const empty = (await impact({ artifact: dearer, from, to: new Date(Date.now() + 120_000).toISOString() })).body.data.impact;
    expect(empty).toMatchObject({ requests: 0, quotes: 0, movers: [], offerings: [], guard: { significantlyChangedQuotes: 0, requiresConfirmation: false } });
    expect(empty.window.from).toBe(from);

    const since = (await impact({ artifact: dearer, from: started })).body.data.impact;
    expect(since.quotes).toBe(9);
  });

  it('answers why a draft cannot be measured, and refuses bad requests in the envelope', async () => {
    const invalid = await impact({ artifact: { ...demoBookArtifact, offerings: [] } });
    expect(invalid.status).toBe(200);
    expect(invalid.body.data).toMatchObject({ valid: false, impact: null });
    expect(Object.keys(invalid.body.data.issues)).toContain('offerings');

    const both = await impact({ artifact: dearer, versionId: tenant.versionId });
    expect(both.status).toBe(400);
    expect(both.body.error.details.fields.artifact).toEqual(['send either versionId or artifact, not both']);
    const longWindow = await impact({ from: '2026-01-01T00:00:00Z', to: '2026-06-01T00:00:00Z' });
    expect(longWindow.body.error.details.fields.from).toEqual(['the window can be at most 90 days']);
    const otherBooksVersion = await impact({ versionId: other.versionId });
    expect(otherBooksVersion.status).toBe(404);
  });

  it('is for people who may publish the book, and never shows another business', async () => {
    expect((await impact({ artifact: dearer }, editorOnly)).status).toBe(403);
    // A business viewer reads the book their quotes come from: refused, not told it does not exist.
    expect((await impact({ artifact: dearer }, viewer)).status).toBe(403);
    expect((await impact({ artifact: dearer }, otherPublisher)).status).toBe(404);
    // The other business's own book sees its own three quotes only.
    const theirs = (await impact({ artifact: dearer, window: '24h' }, otherPublisher, other.bookId)).body.data.impact;
    expect([theirs.requests, theirs.quotes]).toEqual([2, 3]);
  });

  it('streams progress as NDJSON when asked, ending in the same answer', async () => {
    const response = await serviceFetch(`/v1/books/${tenant.bookId}/impact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publisher.token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({ artifact: dearer, window: '24h' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text()).trim().split('\n').map((line) => JSON.parse(line));
    const progress = lines.slice(0, -1).map((line) => line.progress);
    expect(progress[0]).toEqual({ done: 0, total: 9 });
    expect(progress.at(-1)).toEqual({ done: 9, total: 9 });
    const last = lines.at(-1);
    expect(last.requestId).toBe(response.headers.get('x-request-id'));
    const plain = await impact({ artifact: dearer, window: '24h' });
    expect({ ...last.data.impact, window: null }).toEqual({ ...plain.body.data.impact, window: null });

    // A refusal found before any progress keeps its own status, not a 200 stream.
    const missing = await serviceFetch(`/v1/books/${tenant.bookId}/impact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publisher.token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({ versionId: other.versionId }),
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  });
});
