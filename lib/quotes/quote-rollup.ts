import type { VerbContext } from '../context/verb-context';
import { rollUpQuoteOutcomes } from './store';

/**
 * The minute job behind the Overview's quotes per day: counts the last hour or so of quotes
 * again into `quote_outcomes_hourly`, so that reading 14 days costs the same at 1 quote a day
 * or 100 a second. The Overview adds the quotes made since the job's mark from the quotes
 * themselves (at most a few minutes of them), so a quote shows at once.
 */
export async function rollUpQuotes({ db, now }: VerbContext): Promise<number> {
  return rollUpQuoteOutcomes(db, now);
}
