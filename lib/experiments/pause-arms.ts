import { withTransaction, type VerbContext } from '../context/verb-context';
import { recordEvent } from '../events/record-event';
import { queueOwnerNotification } from '../notifications/queue-owner-notification';
import { describeGuardrail } from './plain-words';
import { runningDefinition, toExperimentView } from './running-experiment';
import { acceptanceGuardrail, DEFAULTS } from './statistics';
import { armTotalsOf } from './arm-totals';
import { readArmTotals, findExperiment, markArmPaused, runningExperimentsWithMargin, type GuardedExperiment } from './store';

/**
 * A pause takes effect this long after the guardrail fires: a quote being made as it fires was
 * assigned by the definition before the pause, and its receipt (dated when it was made) must
 * still recompute with the definition after it (docs/experiments.md, "Guardrails").
 */
export const PAUSE_TAKES_EFFECT_MS = 60_000;

/**
 * The minute job `pause-losing-arms`: for each running experiment with an acceptance margin,
 * each variant not yet paused against the control with `acceptanceGuardrail` (one-sided,
 * anytime-valid, so reading it every minute is fine; α split across the variants). A variant
 * shown to lose more than the margin is paused: from `pausedAt` on its subjects are priced
 * with the control; an `experiment.paused` event, and an email to the owners of the businesses
 * the project serves when SMTP is set. Idempotent: a paused arm is never paused again.
 * Answers how many arms it paused.
 */
export async function pauseLosingArms(ctx: VerbContext, options: { takesEffectAfterMs?: number } = {}): Promise<number> {
  let paused = 0;
  for (const experiment of await runningExperimentsWithMargin(ctx.db)) {
    const live = experiment.variants.filter((v) => !v.pausedAt);
    if (live.length === 0) continue;
    // The results' own counts (the rollup and the minutes since its mark): cheap at any size.
    const byArm = armTotalsOf(await readArmTotals(ctx.db, { ...experiment, startedAt: experiment.startedAt! }), ['control', ...experiment.variants.map((v) => v.name)]);
    const control = byArm.control.totals;
    const alpha = DEFAULTS.alpha / experiment.variants.length;
    for (const variant of live) {
      const check = acceptanceGuardrail(control, byArm[variant.name].totals, {
        marginPoints: experiment.pauseWhenAcceptanceDropsPoints! / 100,
        alpha,
      });
      if (!check.breached) continue;
      const reason = describeGuardrail(check, { control: 'the control', variant: variant.name });
      if (await pauseArm(ctx, experiment, variant.name, reason, options)) paused++;
    }
  }
  return paused;
}

/**
 * Pauses one variant in a transaction of its own (what the job does when the guardrail fires;
 * exported for tests and tools); false when it was paused or stopped meanwhile.
 */
export async function pauseArm(
  ctx: VerbContext,
  experiment: Pick<GuardedExperiment, 'id' | 'bookId' | 'workspaceId' | 'projectId'>,
  arm: string,
  reason: string,
  { takesEffectAfterMs = PAUSE_TAKES_EFFECT_MS }: { takesEffectAfterMs?: number } = {},
): Promise<boolean> {
  return withTransaction(ctx, async ({ db, now }) => {
    const row = await findExperiment(db, experiment.bookId, experiment.id, { lock: true });
    if (!row || row.state !== 'running' || !row.controlVersionId) return false;
    const variant = row.variants.find((v) => v.name === arm);
    if (!variant || variant.pausedAt) return false; // paused already: never twice
    const pausedAt = new Date(now.getTime() + takesEffectAfterMs).toISOString();
    const variants = row.variants.map((v) => (v.name === arm ? { ...v, pausedAt, pauseReason: reason } : v));
    const updated = { ...row, variants };
    await markArmPaused(db, { id: row.id, variants, definition: runningDefinition(updated, row.controlVersionId), at: now });
    const eventId = await recordEvent(
      { db, now },
      {
        type: 'experiment.paused',
        workspaceId: experiment.workspaceId,
        projectId: experiment.projectId,
        environmentId: row.environmentId,
        subjectId: row.id,
        data: { experiment: toExperimentView(updated), arm, reason },
      },
    );
    // The email names the event: it says which arm and why.
    await queueOwnerNotification(db, { kind: 'experiment_paused', subjectId: eventId, projectId: experiment.projectId, now });
    ctx.log.info({ experimentId: row.id, arm }, 'experiment arm paused by its acceptance guardrail');
    return true;
  });
}
