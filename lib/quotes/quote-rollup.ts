import type { VerbContext } from '../context/verb-context';
import {
  rollUpExperimentAcceptances,
  rollUpExperimentAccountQuotes,
  rollUpExperimentCommitments,
  rollUpExperimentQuotes,
} from '../experiments/store';
import { rollUpQuoteFunnel, rollUpQuoteOutcomes } from './store';

/**
 * The minute job behind the Overview's quotes per day: adds the quotes made since its mark (up to
 * five minutes ago, by the database's clock) to `quote_outcomes_hourly`, so that reading 14 days
 * costs the same at 1 quote a day or 100 a second, and each run reads about a minute of quotes.
 * The Overview adds the quotes made since the mark from the quotes themselves (a few minutes of
 * them), so a quote shows at once. The same run counts them into the funnel's daily rollups
 * (outcomes, priced totals, unanswered questions per offering: lib/funnel/), from a mark of their
 * own, and the experiments' priced quotes, acceptances, account quotes and commitments per arm
 * (experiment_arm_daily, behind experiment results) from four more. Returns how many quotes it counted into the Overview's rollup.
 */
export async function rollUpQuotes({ db }: VerbContext): Promise<number> {
  const counted = await rollUpQuoteOutcomes(db);
  await rollUpQuoteFunnel(db);
  await rollUpExperimentQuotes(db);
  await rollUpExperimentAcceptances(db);
  await rollUpExperimentAccountQuotes(db);
  await rollUpExperimentCommitments(db);
  return counted;
}
