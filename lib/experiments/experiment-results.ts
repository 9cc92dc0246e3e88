import type { BookTenancy } from '../books/store';
import { readDbOf, type VerbContext } from '../context/verb-context';
import { armTotalsOf } from './arm-totals';
import { describeComparison } from './plain-words';
import { experimentNotFound } from './read-experiments';
import { toExperimentView } from './running-experiment';
import type { ExperimentResultsView } from './schemas';
import { compareExperiment, type MetricId } from './statistics';
import { findExperiment, readArmTotals } from './store';

type Metric = ExperimentResultsView['metric'];
const STATISTIC: Record<Metric, MetricId> = {
  revenue_per_quote: 'revenue_per_quote',
  acceptance_rate: 'acceptance_rate',
  committed_revenue: 'committed_revenue_per_quote',
};

/**
 * GET /v1/books/{bookId}/experiments/{id}/results: each arm's totals since the start and each
 * variant against the control, on the primary metric first and the two others after. Totals come
 * from experiment_arm_daily (kept by the minute job, off the quote path) plus what is past its
 * marks, and the won leads from the leads; the statistics are lib/experiments/statistics.ts.
 */
export async function experimentResults(ctx: VerbContext, book: BookTenancy, experimentId: string): Promise<ExperimentResultsView> {
  const db = readDbOf(ctx);
  const row = await findExperiment(db, book.id, experimentId);
  if (!row) throw experimentNotFound(experimentId);
  const view = toExperimentView(row);
  const rows = row.startedAt ? await readArmTotals(db, { id: row.id, bookId: row.bookId, environmentId: row.environmentId, startedAt: row.startedAt }) : [];
  const names = view.arms.map((a) => a.name);
  const counted = armTotalsOf(rows, names);
  const [control, ...variants] = names;
  const result = compareExperiment(counted[control].totals, Object.fromEntries(variants.map((name) => [name, counted[name].totals])));
  const summaries = new Map([[control, result.control], ...result.variants.map((v) => [v.key, v.summary] as const)]);
  const metrics = [row.primaryMetric, ...(Object.keys(STATISTIC) as Metric[]).filter((m) => m !== row.primaryMetric)];

  return {
    experimentId: row.id,
    state: row.state,
    metric: row.primaryMetric,
    asOf: ctx.now.toISOString(),
    arms: view.arms.map((arm) => {
      const { totals, currency } = counted[arm.name];
      const summary = summaries.get(arm.name)!;
      return {
        name: arm.name,
        versionId: arm.versionId,
        quotes: totals.quotes,
        acceptances: totals.acceptances,
        commitments: totals.commitments,
        wonLeads: totals.wonLeads,
        acceptedRevenueMinor: Number(totals.acceptedRevenue.sum),
        revenuePerQuoteMinor: summary.revenuePerQuote,
        acceptanceRate: summary.acceptanceRate,
        averagePriceMinor: summary.averagePrice,
        currency,
      };
    }),
    comparisons: result.variants.flatMap((variant) =>
      metrics.map((metric) => {
        const c = variant.comparisons[STATISTIC[metric]];
        return {
          arm: variant.key,
          metric,
          verdict: c.verdict,
          absolute: c.absolute,
          relative: c.relative,
          moreQuotesPerArm: c.verdict === 'not_enough_data' && c.moreQuotes ? Math.max(c.moreQuotes.control, c.moreQuotes.variant) : null,
          sentence: describeComparison(c, { control, variant: variant.key }),
        };
      }),
    ),
  };
}
