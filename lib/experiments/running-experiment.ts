import { z } from 'zod';
import { assignArm, type Assignment } from './assignment';
import { WEIGHT_UNITS, type ExperimentView } from './schemas';
import { EXPERIMENT_SURFACES, type ExperimentSurface } from './surfaces';
import type { ExperimentRow } from './store';

/**
 * A running experiment as its publication carries it (`publications.experiment`), read with the
 * publication into the quote's scope and remembered with it: what the quote path assigns with,
 * without reading any other table. Its id is the stamp the quote's insert re-checks.
 */
export const runningExperimentSchema = z.object({
  id: z.string(),
  salt: z.string(),
  /** `pausedAt` (ISO) on an arm the acceptance guardrail paused: from then on its subjects are priced with the control. */
  arms: z.array(z.object({ name: z.string(), versionId: z.string(), basisPoints: z.number().int(), pausedAt: z.string().optional() })).min(1),
  /** null: every offering takes part. */
  offeringIds: z.array(z.string()).nullable(),
  /** The surfaces whose quotes take part; definitions published before surfaces existed covered these two. */
  surfaces: z.array(z.enum(EXPERIMENT_SURFACES)).default(['hosted', 'api']),
});
export type RunningExperiment = z.infer<typeof runningExperimentSchema>;

/** What a receipt records of the arm it was priced with (receipt format 2). */
export type ExperimentAssignment = Assignment & { experimentId: string; versionId: string };

const toBasisPoints = (row: Pick<ExperimentRow, 'weightUnit'>, weight: number) => (weight * WEIGHT_UNITS.basis_points) / WEIGHT_UNITS[row.weightUnit];

/** The arms in assignment order: the control, then the variants as given. */
export function armsOf(row: ExperimentRow): ExperimentView['arms'] {
  return [
    { name: 'control', versionId: row.controlVersionId, weight: row.controlWeight, basisPoints: toBasisPoints(row, row.controlWeight) },
    ...row.variants.map((v) => ({
      name: v.name,
      versionId: v.versionId,
      weight: v.weight,
      basisPoints: toBasisPoints(row, v.weight),
      ...(v.pausedAt ? { pausedAt: v.pausedAt, pauseReason: v.pauseReason ?? '' } : {}),
    })),
  ];
}

/** The definition a publication carries once the experiment starts with its control pinned. */
export function runningDefinition(row: ExperimentRow, controlVersionId: string): RunningExperiment {
  return {
    id: row.id,
    salt: row.salt,
    arms: armsOf({ ...row, controlVersionId }).map(({ name, versionId, basisPoints, pausedAt }) => ({
      name,
      versionId: versionId!,
      basisPoints,
      ...(pausedAt ? { pausedAt } : {}),
    })),
    offeringIds: row.offeringIds.length > 0 ? row.offeringIds : null,
    surfaces: row.surfaces,
  };
}

/** What a quote is, for whether an experiment covers it: where it comes from and what it prices. */
export type QuoteTakingPart = {
  surface: ExperimentSurface;
  /** The offerings it prices (the account surface's quotes price several services). */
  offeringIds: readonly string[];
};

/**
 * The arm a quote by `subject` made `at` is priced with, or null when the experiment does not
 * cover its surface or every one of its offerings (then the publication prices it: one version
 * prices a quote, so a quote with an offering outside the experiment stays out). Pure: the
 * scope's memory holds the definition; an arm paused by then sends its subjects to the control.
 */
export function assignQuote(experiment: RunningExperiment | null, quote: QuoteTakingPart, subject: string, at: Date): ExperimentAssignment | null {
  if (!experiment) return null;
  if (!experiment.surfaces.includes(quote.surface)) return null;
  const covered = experiment.offeringIds;
  if (covered && !quote.offeringIds.every((id) => covered.includes(id))) return null;
  const assignment = assignArm(experiment, { subject }, { at });
  const arm = experiment.arms.find((a) => a.name === assignment.arm)!;
  return { ...assignment, experimentId: experiment.id, versionId: arm.versionId };
}

/** The stored definition from the publication's column (null when nothing runs). */
export function parseRunningExperiment(value: unknown): RunningExperiment | null {
  return value == null ? null : runningExperimentSchema.parse(value);
}

export function toExperimentView(row: ExperimentRow): ExperimentView {
  return {
    id: row.id,
    bookId: row.bookId,
    environment: row.environment,
    name: row.name,
    state: row.state,
    primaryMetric: row.primaryMetric,
    salt: row.salt,
    weightUnit: row.weightUnit,
    arms: armsOf(row),
    offeringIds: row.offeringIds.length > 0 ? row.offeringIds : null,
    surfaces: row.surfaces,
    maxPriceDifferencePercent: row.maxPriceDifferencePercent,
    pauseWhenAcceptanceDropsPoints: row.pauseWhenAcceptanceDropsPoints,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
    concludedAt: row.concludedAt?.toISOString() ?? null,
    winner: row.winnerArm && row.winnerVersionId ? { arm: row.winnerArm, versionId: row.winnerVersionId } : null,
  };
}
