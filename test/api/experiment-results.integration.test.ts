import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBookVersion } from '../../lib/books/create-book-version';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { assignArm, type Assignment } from '../../lib/experiments/assignment';
import { issueFormToken } from '../../lib/leads/form-token';
import { rollUpQuotes } from '../../lib/quotes/quote-rollup';
import { rollUpExperimentAcceptances, rollUpExperimentQuotes } from '../../lib/experiments/store';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { settleAfterNewest } from '../support/rollup-settle';

/**
 * Experiment results (docs/experiments.md, "Results"): quotes in each arm (API quotes by
 * Quote-Subject, hosted-page quotes by the visitor cookie), some accepted on the hosted page and
 * one lead won; every per-arm count and sum, the comparisons in words, the same answer before and
 * after the minute roll-up counts them; who may read.
 */

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('experiment results', () => {
  let tenant: Tenant;
  let publisher: Person;
  let owner: Person;
  let definition: { id: string; salt: string; arms: { name: string; versionId: string; basisPoints: number }[] };
  const as = (person: Person) => ({ key: person.token });
  const results = (experimentId = definition.id, person = publisher, bookId = tenant.bookId) =>
    api('GET', `/v1/books/${bookId}/experiments/${experimentId}/results`, as(person));

  /** `count` subjects (hosted-page visitor ids are 22–64 of [A-Za-z0-9_-]) that fall in `arm`. */
  function subjectsIn(arm: string, count: number, prefix: string): string[] {
    const found: string[] = [];
    for (let i = 0; found.length < count; i++) {
      const subject = `${prefix}-${arm}-${i}-padding-padding`;
      if ((assignArm(definition, { subject }) as Assignment).arm === arm) found.push(subject);
    }
    return found;
  }

  beforeAll(async () => {
    tenant = await createTenant();
    [publisher, owner] = await Promise.all([
      createPerson(tenant, { permissions: ['books:edit', 'books:publish'] }),
      createPerson(tenant, { businessRole: 'owner' }),
    ]);
    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    const variant = await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: cheaper });
    const created = await api('POST', `/v1/books/${tenant.bookId}/experiments`, {
      ...as(publisher),
      body: { environment: 'live', name: 'Cheaper windows', controlWeight: 50, variants: [{ versionId: variant.id, weight: 50 }], maxPriceDifferencePercent: 60 },
    });
    expect(created.status, created.text).toBe(201);
    const started = await api('POST', `/v1/books/${tenant.bookId}/experiments/${created.body.data.experiment.id}/start`, as(publisher));
    expect(started.status, started.text).toBe(200);
    definition = started.body.data.experiment;
  });

  it('counts each arm’s quotes, acceptances, won leads and revenue, compares the variant on all three metrics, and answers the same before and after the roll-up', async () => {
    const expected: Record<string, { quotes: number; priceSum: number; acceptances: number; accepted: number[]; won: number; currency?: string }> = {
      control: { quotes: 0, priceSum: 0, acceptances: 0, accepted: [], won: 0 },
      variant_1: { quotes: 0, priceSum: 0, acceptances: 0, accepted: [], won: 0 },
    };
    const count = (body: any, arm: string) => {
      const receipt = body.data.quoteReceipt;
      expect(receipt.experiment).toMatchObject({ experimentId: definition.id, arm });
      expected[arm].quotes += 1;
      expected[arm].priceSum += receipt.computation.totalMinor;
      expected[arm].currency = receipt.computation.currency;
      return { id: body.data.quoteIntent.id as string, total: receipt.computation.totalMinor as number };
    };

    // API quotes by Quote-Subject: two per arm.
    for (const arm of ['control', 'variant_1']) {
      for (const subject of subjectsIn(arm, 2, 'api')) {
        const res = await api('POST', '/v1/quotes', { key: tenant.keys.live, headers: { 'quote-subject': subject }, body: quoteRequest(tenant) });
        expect(res.status, res.text).toBe(201);
        count(res.body, arm);
      }
    }
    // Hosted-page quotes by visitor id: three in the control (two accepted, one of them won), two in the variant (one accepted).
    const { businessId: _b, bookId: _k, ...body } = quoteRequest(tenant);
    const accepts = { control: 2, variant_1: 1 } as const;
    let client = 0;
    for (const [arm, n] of [['control', 3], ['variant_1', 2]] as const) {
      for (const [i, visitor] of subjectsIn(arm, n, 'page').entries()) {
        const res = await api('POST', '/v1/public_quotes', { headers: { cookie: `qps_visitor=${visitor}` }, body: { businessId: tenant.businessId, ...body } });
        expect(res.status, res.text).toBe(201);
        const quote = count(res.body, arm);
        if (i >= accepts[arm]) continue;
        const accepted = await api('POST', `/v1/public_quotes/${quote.id}/acceptance`, {
          headers: { 'x-forwarded-for': `203.0.113.${++client}` },
          body: { businessId: tenant.businessId, contact: { name: 'Sam Okafor', email: 'sam@example.test' }, preferredDate: day(7), consent: true, formToken: issueFormToken(quote.id, new Date(Date.now() - 5_000)) },
        });
        expect(accepted.status, accepted.text).toBe(201);
        expected[arm].acceptances += 1;
        expected[arm].accepted.push(quote.total);
        if (arm === 'control' && i === 0) {
          const lead = await testDb().quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId: quote.id } });
          const moved = await api('PATCH', `/v1/businesses/${tenant.businessId}/leads/${lead.id}`, { ...as(owner), body: { status: 'won' } });
          expect(moved.status, moved.text).toBe(200);
          expected.control.won += 1;
        }
      }
    }

    const before = await results();
    expect(before.status, before.text).toBe(200);
    const r = before.body.data.results;
    expect(r).toMatchObject({ experimentId: definition.id, state: 'running', metric: 'revenue_per_quote' });
    expect(Date.parse(r.asOf)).not.toBeNaN();
    expect(r.arms).toEqual(
      definition.arms.map((arm) => {
        const e = expected[arm.name];
        const revenue = e.accepted.reduce((a, b) => a + b, 0);
        return {
          name: arm.name,
          versionId: arm.versionId,
          quotes: e.quotes,
          acceptances: e.acceptances,
          commitments: 0,
          wonLeads: e.won,
          acceptedRevenueMinor: revenue,
          revenuePerQuoteMinor: revenue / e.quotes,
          acceptanceRate: e.acceptances / e.quotes,
          averagePriceMinor: e.priceSum / e.quotes,
          currency: e.currency,
        };
      }),
    );
    expect(r.arms.map((a: { quotes: number }) => a.quotes)).toEqual([5, 4]);
    expect(r.arms[1].averagePriceMinor).toBeLessThan(r.arms[0].averagePriceMinor);

    // One variant: the primary metric first, then the two others; few quotes, so no verdict yet.
    expect(r.comparisons.map((c: { arm: string; metric: string }) => [c.arm, c.metric])).toEqual([
      ['variant_1', 'revenue_per_quote'],
      ['variant_1', 'acceptance_rate'],
      ['variant_1', 'committed_revenue'],
    ]);
    for (const c of r.comparisons) {
      expect(c.verdict).toBe('not_enough_data');
      expect(c.moreQuotesPerArm === null || c.moreQuotesPerArm >= 95).toBe(true);
    }
    const [revenue, acceptance, committed] = r.comparisons;
    expect(revenue.absolute.estimate).toBeCloseTo(r.arms[1].revenuePerQuoteMinor - r.arms[0].revenuePerQuoteMinor, 6);
    expect(revenue.relative.estimate).toBeCloseTo(r.arms[1].revenuePerQuoteMinor / r.arms[0].revenuePerQuoteMinor - 1, 6);
    // Counts and prices are fixed (each arm prices the example alike), so the words are too.
    expect(revenue.sentence).toBe(
      'Not enough data yet: about 210 more quotes for control and 170 for variant_1 (so far variant_1 brings 60% less revenue per quote, 95%: between -1433% and +1313%)',
    );
    expect(revenue.moreQuotesPerArm).toBe(202); // the forecast as computed; the sentence rounds it up
    expect(acceptance.absolute.estimate).toBeCloseTo(1 / 4 - 2 / 5, 6);
    expect(acceptance.sentence).toContain('acceptances per quote');
    // Nothing committed (account quotes take no part): a zero difference, no relative one, and the burn-in still to go.
    expect(committed).toMatchObject({ absolute: { estimate: 0, lower: 0, upper: 0 }, relative: null, moreQuotesPerArm: 96 });
    expect(committed.sentence).toBe('Not enough data yet: about 95 more quotes for control and 96 for variant_1');

    // The minute job counts them into experiment_arm_daily (here with a settle time just past
    // this test's newest rows); the answer does not move.
    await rollUpQuotes(testContext(testDb()));
    const quotesSettle = await settleAfterNewest(testDb(), `SELECT max(created_at) FROM quote_intents WHERE experiment_id = $1::uuid`, definition.id);
    expect(await rollUpExperimentQuotes(testDb(), quotesSettle)).toBeGreaterThanOrEqual(9);
    const acceptancesSettle = await settleAfterNewest(testDb(), `SELECT max(created_at) FROM quote_acceptances WHERE experiment_id = $1::uuid`, definition.id);
    expect(await rollUpExperimentAcceptances(testDb(), acceptancesSettle)).toBeGreaterThanOrEqual(3);
    const rolled = await testDb().$queryRawUnsafe<{ quotes: bigint; acceptances: bigint }[]>(
      `SELECT sum(quotes)::bigint AS quotes, sum(acceptances)::bigint AS acceptances FROM experiment_arm_daily WHERE experiment_id = $1::uuid`,
      definition.id,
    );
    expect(rolled).toEqual([{ quotes: 9n, acceptances: 3n }]);
    const after = await results();
    expect({ ...after.body.data.results, asOf: null }).toEqual({ ...r, asOf: null });
  });

  it('answers zeros for a draft, and 404 for another tenant’s book or experiment; 401 without a session', async () => {
    const draft = await api('POST', `/v1/books/${tenant.bookId}/experiments`, {
      ...as(publisher),
      body: { environment: 'test', name: 'Draft', controlWeight: 50, variants: [{ versionId: definition.arms[1].versionId, weight: 50 }], maxPriceDifferencePercent: 60 },
    });
    const empty = await results(draft.body.data.experiment.id);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.data.results.arms.map((a: { quotes: number; revenuePerQuoteMinor: unknown; currency: unknown }) => [a.quotes, a.revenuePerQuoteMinor, a.currency])).toEqual([
      [0, null, null],
      [0, null, null],
    ]);
    expect(empty.body.data.results.comparisons[0].sentence).toBe('Not enough data yet: no quotes yet');

    const other = await createTenant();
    const outsider = await createPerson(other, { permissions: 'all' });
    for (const res of [await results(definition.id, outsider), await results(definition.id, outsider, other.bookId), await results(randomUUID())]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await api('GET', `/v1/books/${tenant.bookId}/experiments/${definition.id}/results`)).status).toBe(401);
  });
});
