import type { EnvironmentName } from '../auth/principal';
import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';
import type { RunningExperiment } from './running-experiment';
import type { WeightUnit } from './schemas';

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
  controlVersionId: string | null;
  maxPriceDifferencePercent: number;
  /** Percentage points; null: never pause. */
  pauseWhenAcceptanceDropsPoints: number | null;
  createdAt: Date;
  startedAt: Date | null;
  stoppedAt: Date | null;
};

const COLUMNS = `x.id::text AS id, x.book_id::text AS "bookId", x.environment_id::text AS "environmentId", e.kind::text AS environment,
  x.name, x.state::text AS state, x.salt, x.primary_metric::text AS "primaryMetric", x.weight_unit AS "weightUnit",
  x.control_weight AS "controlWeight", x.variants, x.offering_ids AS "offeringIds", x.control_version_id::text AS "controlVersionId",
  x.max_price_difference_percent AS "maxPriceDifferencePercent", x.pause_when_acceptance_drops_points AS "pauseWhenAcceptanceDropsPoints",
  x.created_at AS "createdAt", x.started_at AS "startedAt", x.stopped_at AS "stoppedAt"`;

export type NewExperiment = Omit<ExperimentRow, 'id' | 'environment' | 'state' | 'controlVersionId' | 'startedAt' | 'stoppedAt'> & { createdBy: string };

export async function insertExperiment(db: DbOrTx, experiment: NewExperiment): Promise<string> {
  const [row] = await sqlRows<{ id: string }>(
    db,
    `INSERT INTO experiments (id, book_id, environment_id, name, salt, primary_metric, weight_unit, control_weight, variants, offering_ids,
                              max_price_difference_percent, pause_when_acceptance_drops_points, created_by, created_at, updated_at)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, $5::"ExperimentMetric", $6, $7, $8::jsonb, $9::text[], $12, $13, $10, $11, $11)
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
    ],
  );
  return row.id;
}

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

/** Per arm: quotes priced (succeeded) and of those, accepted by their customer. */
export type ArmAcceptances = { arm: string; quotes: number; acceptances: number };

/**
 * The experiment's priced quotes and acceptances per arm, as the receipts record the arm.
 * Bounded by the quote intents' (book, environment, created_at) index from the start on.
 */
export async function armAcceptances(db: DbOrTx, experiment: Pick<ExperimentRow, 'id' | 'bookId' | 'environmentId' | 'startedAt'>): Promise<ArmAcceptances[]> {
  return sqlRows<ArmAcceptances>(
    db,
    `SELECT r.experiment->>'arm' AS arm, count(*)::int AS quotes, count(a.id)::int AS acceptances
       FROM quote_intents i
       JOIN quote_receipts r ON r.quote_intent_id = i.id
       LEFT JOIN quote_acceptances a ON a.quote_intent_id = i.id
      WHERE i.book_id = $1::uuid AND i.environment_id = $2::uuid AND i.created_at >= $3::timestamptz
        AND r.outcome = 'succeeded' AND r.experiment->>'experimentId' = $4::text
      GROUP BY 1`,
    [experiment.bookId, experiment.environmentId, experiment.startedAt, experiment.id],
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
