import type { EnvironmentName } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import {
  EXPERIMENT_ACCEPTANCE_COLUMNS,
  EXPERIMENT_ACCEPTANCES_MARK,
  EXPERIMENT_QUOTE_COLUMNS,
  EXPERIMENT_QUOTE_FROM,
  EXPERIMENT_QUOTE_WHERE,
  EXPERIMENT_QUOTES_MARK,
  EXPERIMENT_ACCOUNT_QUOTE_COLUMNS,
  EXPERIMENT_ACCOUNT_QUOTE_WHERE,
  EXPERIMENT_ACCOUNT_QUOTES_MARK,
  EXPERIMENT_COMMITMENT_COLUMNS,
  EXPERIMENT_COMMITMENT_WHERE,
  EXPERIMENT_COMMITMENTS_MARK,
} from './store/arm-rollup';
// The experiments' own rollup of quotes, acceptances and commitments by arm and day (the minute job's).
export { rollUpExperimentAcceptances, rollUpExperimentAccountQuotes, rollUpExperimentCommitments, rollUpExperimentQuotes } from './store/arm-rollup';
import type { RunningExperiment } from './running-experiment';
import type { WeightUnit } from './schemas';
import type { ExperimentSurface } from './surfaces';

/**
 * The experiments' store: the only place with SQL for experiments and the running experiment a
 * publication carries (the quote path reads that with the publication, never this table).
 */

/** A variant as stored; `pausedAt` (ISO) and `pauseReason` once the acceptance guardrail paused it. */
export type StoredVariant = { name: string; versionId: string; weight: number; pausedAt?: string; pauseReason?: string };

export type ExperimentRow = {
  id: string;
  bookId: string;
  environmentId: string;
  environment: EnvironmentName;
  name: string;
  state: 'draft' | 'running' | 'stopped' | 'concluded';
  salt: string;
  primaryMetric: 'revenue_per_quote' | 'acceptance_rate' | 'committed_revenue';
  weightUnit: WeightUnit;
  controlWeight: number;
  variants: StoredVariant[];
  offeringIds: string[];
  surfaces: ExperimentSurface[];
  controlVersionId: string | null;
  maxPriceDifferencePercent: number;
  /** Percentage points; null: never pause. */
  pauseWhenAcceptanceDropsPoints: number | null;
  createdAt: Date;
  startedAt: Date | null;
  stoppedAt: Date | null;
  concludedAt: Date | null;
  winnerArm: string | null;
  winnerVersionId: string | null;
};

const COLUMNS = `x.id::text AS id, x.book_id::text AS "bookId", x.environment_id::text AS "environmentId", e.kind::text AS environment,
  x.name, x.state::text AS state, x.salt, x.primary_metric::text AS "primaryMetric", x.weight_unit AS "weightUnit",
  x.control_weight AS "controlWeight", x.variants, x.offering_ids AS "offeringIds", x.surfaces, x.control_version_id::text AS "controlVersionId",
  x.max_price_difference_percent AS "maxPriceDifferencePercent", x.pause_when_acceptance_drops_points AS "pauseWhenAcceptanceDropsPoints",
  x.created_at AS "createdAt", x.started_at AS "startedAt", x.stopped_at AS "stoppedAt",
  x.concluded_at AS "concludedAt", x.winner_arm AS "winnerArm", x.winner_version_id::text AS "winnerVersionId"`;

export type NewExperiment = Omit<ExperimentRow, 'id' | 'environment' | 'state' | 'controlVersionId' | 'startedAt' | 'stoppedAt' | 'concludedAt' | 'winnerArm' | 'winnerVersionId'> & { createdBy: string };

export async function insertExperiment(db: DbOrTx, experiment: NewExperiment): Promise<string> {
  const [row] = await sqlRows<{ id: string }>(
    db,
    `INSERT INTO experiments (id, book_id, environment_id, name, salt, primary_metric, weight_unit, control_weight, variants, offering_ids,
                              max_price_difference_percent, pause_when_acceptance_drops_points, created_by, created_at, updated_at, surfaces)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, $5::"ExperimentMetric", $6, $7, $8::jsonb, $9::text[], $12, $13, $10, $11, $11, $14::text[])
     RETURNING id::text AS id`,
    [
      experiment.bookId,
      experiment.environmentId,
      experiment.name,
      experiment.salt,
      experiment.primaryMetric,
      experiment.weightUnit,
      experiment.controlWeight,
      JSON.stringify(experiment.variants),
      experiment.offeringIds,
      experiment.createdBy,
      experiment.createdAt,
      experiment.maxPriceDifferencePercent,
      experiment.pauseWhenAcceptanceDropsPoints,
      experiment.surfaces,
    ],
  );
  return row.id;
}

/** An experiment's id and name as JSON, for a statement that reads it with other things (the quote's trace). */
export const experimentNameJson = (alias: string) => `json_build_object('id', ${alias}.id, 'name', ${alias}.name)`;

/** One experiment of the book; null when the book has none by that id. */
export async function findExperiment(db: DbOrTx, bookId: string, experimentId: string, options: { lock?: boolean } = {}): Promise<ExperimentRow | null> {
  const [row] = await sqlRows<ExperimentRow>(
    db,
    `SELECT ${COLUMNS} FROM experiments x JOIN environments e ON e.id = x.environment_id
      WHERE x.id = $1::uuid AND x.book_id = $2::uuid${options.lock ? ' FOR UPDATE OF x' : ''}`,
    [experimentId, bookId],
  );
  return row ?? null;
}

/** The book's experiments, newest first. */
export async function findExperiments(db: DbOrTx, bookId: string): Promise<ExperimentRow[]> {
  return sqlRows<ExperimentRow>(
    db,
    `SELECT ${COLUMNS} FROM experiments x JOIN environments e ON e.id = x.environment_id
      WHERE x.book_id = $1::uuid ORDER BY x.created_at DESC, x.id DESC LIMIT 200`,
    [bookId],
  );
}

/** The versions among `versionIds` that belong to the book. */
export async function versionsOfBook(db: DbOrTx, bookId: string, versionIds: readonly string[]): Promise<Set<string>> {
  const rows = await sqlRows<{ id: string }>(db, `SELECT id::text AS id FROM book_versions WHERE book_id = $1::uuid AND id = ANY($2::uuid[])`, [bookId, versionIds]);
  return new Set(rows.map((r) => r.id));
}

/** The experiment running on the (book, environment), if any. */
export async function runningExperimentId(db: DbOrTx, bookId: string, environmentId: string): Promise<string | null> {
  const [row] = await sqlRows<{ id: string }>(
    db,
    `SELECT id::text AS id FROM experiments WHERE book_id = $1::uuid AND environment_id = $2::uuid AND state = 'running'`,
    [bookId, environmentId],
  );
  return row?.id ?? null;
}

/** Marks the experiment running with its control pinned, and hangs its definition on the publication. */
export async function markStarted(
  db: DbOrTx,
  experiment: { id: string; bookId: string; environmentId: string; controlVersionId: string; definition: RunningExperiment; at: Date },
): Promise<void> {
  await sqlRows(
    db,
    `UPDATE experiments SET state = 'running', control_version_id = $2::uuid, started_at = $3, updated_at = $3 WHERE id = $1::uuid RETURNING id`,
    [experiment.id, experiment.controlVersionId, experiment.at],
  );
  await sqlRows(
    db,
    `UPDATE publications SET experiment_id = $3::uuid, experiment = $4::jsonb WHERE book_id = $1::uuid AND environment_id = $2::uuid RETURNING id`,
    [experiment.bookId, experiment.environmentId, experiment.id, JSON.stringify(experiment.definition)],
  );
}

/** Marks the experiment stopped and takes it off its publication: quotes price with the publication again. */
export async function markStopped(db: DbOrTx, experiment: { id: string; at: Date }): Promise<void> {
  await sqlRows(db, `UPDATE experiments SET state = 'stopped', stopped_at = $2, updated_at = $2 WHERE id = $1::uuid RETURNING id`, [experiment.id, experiment.at]);
  await sqlRows(db, `UPDATE publications SET experiment_id = NULL, experiment = NULL WHERE experiment_id = $1::uuid RETURNING id`, [experiment.id]);
}

/** One arm's totals in one currency as SQL sums them: sums as text (numeric can pass 2^53). */
export type ArmTotalsRow = {
  arm: string;
  currency: string;
  quotes: string;
  quotedPriceSum: string;
  acceptances: string;
  acceptedRevenueSum: string;
  acceptedRevenueSumOfSquares: string;
  commitments: string;
  committedRevenueSum: string;
  committedRevenueSumOfSquares: string;
  wonLeads: string;
};

// Per arm and currency: the rollup's rows (experiment_arm_daily, by its primary key), and what
// was made since each mark (a few minutes of it): priced quotes (the book's quotes by (book,
// environment, time)), acceptances (BRIN on time), account quotes (the project's, by environment,
// state and time) and commitments (BRIN on time); and the won leads, read from the leads
// themselves (a status moves after the fact) by the partial index on won leads per experiment
// and arm (an acceptance names its quote's experiment and arm). Parameters: $1 experiment, $2 book, $3 environment.
// Columns of `counted`: quotes, quoted price, acceptances, accepted revenue and its squares,
// commitments, committed revenue and its squares, won leads.
// Each branch's lower bound is the later of its mark and the start, passed as a parameter: the
// planner then sees a few minutes of rows and takes the time index. (Read in the statement, as a
// join or even a scalar subquery, the bound is unknown when planning: the planner assumed a third
// of the book's quotes and scanned every receipt, 21 s a read at 1M quotes in the bench.)
// Parameters $4–$7: the quotes', acceptances', account quotes' and commitments' bounds.
const TAIL_MARKS = [EXPERIMENT_QUOTES_MARK, EXPERIMENT_ACCEPTANCES_MARK, EXPERIMENT_ACCOUNT_QUOTES_MARK, EXPERIMENT_COMMITMENTS_MARK] as const;
const since = (mark: (typeof TAIL_MARKS)[number]) => `$${4 + TAIL_MARKS.indexOf(mark)}::timestamptz`;
const ARM_TOTALS_SQL = `WITH counted AS (
    SELECT arm, currency, quotes, quoted_price_sum, acceptances, accepted_revenue_sum, accepted_revenue_sum_of_squares,
           commitments, committed_revenue_sum, committed_revenue_sum_of_squares, 0 AS won
      FROM experiment_arm_daily WHERE experiment_id = $1::uuid
    UNION ALL
    SELECT q.arm, q.currency, 1, q.total_minor, 0, 0, 0, 0, 0, 0, 0 FROM (
      SELECT ${EXPERIMENT_QUOTE_COLUMNS}
        FROM ${EXPERIMENT_QUOTE_FROM}
       WHERE qi.book_id = $2::uuid AND qi.environment_id = $3::uuid AND qi.created_at >= ${since(EXPERIMENT_QUOTES_MARK)}
         AND ${EXPERIMENT_QUOTE_WHERE}) q
     WHERE q.experiment_id = $1::uuid
    UNION ALL
    SELECT a.arm, a.currency, 0, 0, 1, a.total_minor, a.total_minor * a.total_minor, 0, 0, 0, 0 FROM (
      SELECT ${EXPERIMENT_ACCEPTANCE_COLUMNS}
        FROM quote_acceptances qa
       WHERE qa.environment_id = $3::uuid AND qa.created_at >= ${since(EXPERIMENT_ACCEPTANCES_MARK)} AND qa.experiment_id IS NOT NULL) a
     WHERE a.experiment_id = $1::uuid
    UNION ALL
    SELECT q.arm, q.currency, 1, q.total_minor, 0, 0, 0, 0, 0, 0, 0 FROM (
      SELECT ${EXPERIMENT_ACCOUNT_QUOTE_COLUMNS}
        FROM account_quotes aq
       WHERE aq.environment_id = $3::uuid AND aq.created_at >= ${since(EXPERIMENT_ACCOUNT_QUOTES_MARK)} AND ${EXPERIMENT_ACCOUNT_QUOTE_WHERE}) q
     WHERE q.experiment_id = $1::uuid
    UNION ALL
    SELECT c.arm, c.currency, 0, 0, 0, 0, 0, 1, c.total_minor, c.total_minor * c.total_minor, 0 FROM (
      SELECT ${EXPERIMENT_COMMITMENT_COLUMNS}
        FROM commitments c JOIN account_quotes aq ON aq.id = c.account_quote_id
       WHERE aq.environment_id = $3::uuid AND c.confirmed_at >= ${since(EXPERIMENT_COMMITMENTS_MARK)} AND ${EXPERIMENT_COMMITMENT_WHERE}) c
     WHERE c.experiment_id = $1::uuid
    UNION ALL
    SELECT qa.experiment_arm, qa.currency, 0, 0, 0, 0, 0, 0, 0, 0, count(*)
      FROM quote_acceptances qa
     WHERE qa.experiment_id = $1::uuid AND qa.status = 'won'
     GROUP BY qa.experiment_arm, qa.currency
  )
  SELECT arm, currency, sum(quotes)::text AS quotes, sum(quoted_price_sum)::text AS "quotedPriceSum",
    sum(acceptances)::text AS acceptances, sum(accepted_revenue_sum)::text AS "acceptedRevenueSum",
    sum(accepted_revenue_sum_of_squares)::text AS "acceptedRevenueSumOfSquares",
    sum(commitments)::text AS commitments, sum(committed_revenue_sum)::text AS "committedRevenueSum",
    sum(committed_revenue_sum_of_squares)::text AS "committedRevenueSumOfSquares", sum(won)::text AS "wonLeads"
  FROM counted GROUP BY arm, currency ORDER BY arm, currency`;

/** The experiment's totals per arm and currency since it started; arms without quotes are absent. */
export async function readArmTotals(
  db: DbOrTx,
  experiment: { id: string; bookId: string; environmentId: string; startedAt: Date },
): Promise<ArmTotalsRow[]> {
  const marks = await sqlRows<{ name: string; through: Date }>(db, `SELECT name, through FROM rollup_marks WHERE name = ANY($1::text[])`, [TAIL_MARKS]);
  const bounds = TAIL_MARKS.map((name) => {
    const mark = marks.find((m) => m.name === name);
    if (!mark) throw new Error(`rollup_marks has no '${name}' row: run the migrations`);
    return mark.through > experiment.startedAt ? mark.through : experiment.startedAt;
  });
  return sqlRows<ArmTotalsRow>(db, ARM_TOTALS_SQL, [experiment.id, experiment.bookId, experiment.environmentId, ...bounds]);
}

/**
 * Marks the experiment concluded with its winner and takes it off its publication (as stopping
 * does; a stopped one is off already). `stopped_at` is kept, or set now when it was running.
 */
export async function markConcluded(
  db: DbOrTx,
  experiment: { id: string; winnerArm: string; winnerVersionId: string | null; concludedBy: string; at: Date },
): Promise<void> {
  await sqlRows(
    db,
    `UPDATE experiments SET state = 'concluded', stopped_at = COALESCE(stopped_at, $5), concluded_at = $5, winner_arm = $2,
            winner_version_id = $3::uuid, concluded_by = $4, updated_at = $5
      WHERE id = $1::uuid RETURNING id`,
    [experiment.id, experiment.winnerArm, experiment.winnerVersionId, experiment.concludedBy, experiment.at],
  );
  await sqlRows(db, `UPDATE publications SET experiment_id = NULL, experiment = NULL WHERE experiment_id = $1::uuid RETURNING id`, [experiment.id]);
}

/** A running experiment the acceptance guardrail watches, with what its events need of the book. */
export type GuardedExperiment = ExperimentRow & { workspaceId: string; projectId: string };

/** The running experiments with an acceptance margin (at most `limit`, oldest start first). */
export async function runningExperimentsWithMargin(db: DbOrTx, limit = 500): Promise<GuardedExperiment[]> {
  return sqlRows<GuardedExperiment>(
    db,
    `SELECT ${COLUMNS}, p.workspace_id::text AS "workspaceId", p.id::text AS "projectId"
       FROM experiments x JOIN environments e ON e.id = x.environment_id JOIN books b ON b.id = x.book_id JOIN projects p ON p.id = b.project_id
      WHERE x.state = 'running' AND x.pause_when_acceptance_drops_points IS NOT NULL
      ORDER BY x.started_at, x.id LIMIT $1::int`,
    [limit],
  );
}

/**
 * Pauses a variant: records `pausedAt` and the reason on it, and republishes the definition its
 * publication carries (so the quote path, which re-checks the definition's pauses, sees it).
 */
export async function markArmPaused(
  db: DbOrTx,
  experiment: { id: string; variants: StoredVariant[]; definition: RunningExperiment; at: Date },
): Promise<void> {
  await sqlRows(db, `UPDATE experiments SET variants = $2::jsonb, updated_at = $3 WHERE id = $1::uuid RETURNING id`, [
    experiment.id,
    JSON.stringify(experiment.variants),
    experiment.at,
  ]);
  await sqlRows(db, `UPDATE publications SET experiment = $2::jsonb WHERE experiment_id = $1::uuid RETURNING id`, [
    experiment.id,
    JSON.stringify(experiment.definition),
  ]);
}
