import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createBookVersion } from '../../lib/books/create-book-version';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { assignArm, checkReceiptAssignment } from '../../lib/experiments/assignment';
import { pauseLosingArms } from '../../lib/experiments/pause-arms';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { withEnv } from '../support/settings';

/**
 * The experiment guardrails (docs/experiments.md, "Guardrails"): a variant pricing the same
 * answers too far from the control cannot start; a variant whose acceptance rate is shown to be
 * below the control's by more than the margin is paused by the minute job (driven here by
 * calling it): its subjects go to the control, receipts made before still recompute, the event
 * is recorded once.
 */

type Artifact = typeof demoBookArtifact;
const withBase = (offeringIndex: number, basePriceMinor: number): Artifact => {
  const artifact = structuredClone(demoBookArtifact) as Artifact;
  artifact.offerings[offeringIndex].basePriceMinor = basePriceMinor;
  return artifact;
};

async function versionOf(tenant: Tenant, artifact: Artifact): Promise<string> {
  return (await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact })).id;
}

describe('experiment guardrails', () => {
  const experiments = (tenant: Tenant) => `/v1/books/${tenant.bookId}/experiments`;
  const create = (tenant: Tenant, person: Person, body: Record<string, unknown>) =>
    api('POST', experiments(tenant), { key: person.token, body: { environment: 'live', name: 'Guarded', ...body } });
  const start = (tenant: Tenant, person: Person, id: string) => api('POST', `${experiments(tenant)}/${id}/start`, { key: person.token });

  it('stores the guardrails with their defaults, and refuses to start a variant pricing further from the control than allowed', async () => {
    const tenant = await createTenant();
    const person = await createPerson(tenant, { permissions: ['books:publish'] });
    const halfPrice = await versionOf(tenant, withBase(0, 6000)); // windows 120.00 → 60.00

    const created = await create(tenant, person, { controlWeight: 50, variants: [{ versionId: halfPrice, weight: 50 }] });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.experiment).toMatchObject({ maxPriceDifferencePercent: 20, pauseWhenAcceptanceDropsPoints: 5 });

    // No quotes yet: the book's own examples are priced, and windows move by far more than 20%.
    const refused = await start(tenant, person, created.body.data.experiment.id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    const difference = refused.body.error.details.priceDifference;
    expect(difference).toMatchObject({ arm: 'variant_1', versionId: halfPrice, offeringId: 'window_cleaning', source: 'book_examples', limitPercent: 20, currency: 'USD' });
    expect(difference.differencePercent).toBeLessThan(-20);
    expect(difference.variantPriceMinor).toBeLessThan(difference.controlPriceMinor);
    expect(difference.answers.length).toBeGreaterThan(0);
    expect(refused.body.error.message).toContain('variant_1 prices Window cleaning (');
    expect(refused.body.error.message).toMatch(/where the control asks .*% less, beyond the 20% the experiment allows/);
    // Still a draft.
    expect((await api('GET', `${experiments(tenant)}/${created.body.data.experiment.id}`, { key: person.token })).body.data.experiment.state).toBe('draft');

    // Recent quotes count too: the same variant against real answers, with a limit it passes.
    for (let i = 0; i < 3; i++) expect((await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest(tenant) })).status).toBe(201);
    const generous = await create(tenant, person, { controlWeight: 50, variants: [{ versionId: halfPrice, weight: 50 }], maxPriceDifferencePercent: 60 });
    expect((await start(tenant, person, generous.body.data.experiment.id)).status).toBe(200);
    expect((await api('POST', `${experiments(tenant)}/${generous.body.data.experiment.id}/stop`, { key: person.token })).status).toBe(200);

    // Within the limit: 120.00 → 126.00 (+5%) starts.
    const close = await versionOf(tenant, withBase(0, 12_600));
    const within = await create(tenant, person, { controlWeight: 50, variants: [{ versionId: close, weight: 50 }], pauseWhenAcceptanceDropsPoints: null });
    expect(within.body.data.experiment.pauseWhenAcceptanceDropsPoints).toBeNull();
    const started = await start(tenant, person, within.body.data.experiment.id);
    expect(started.status, started.text).toBe(200);
  });

  it('refuses guardrail settings out of range with 400', async () => {
    const tenant = await createTenant();
    const person = await createPerson(tenant, { permissions: ['books:publish'] });
    const version = await versionOf(tenant, withBase(0, 12_100));
    for (const bad of [{ maxPriceDifferencePercent: -1 }, { maxPriceDifferencePercent: 2.5 }, { pauseWhenAcceptanceDropsPoints: 0 }, { pauseWhenAcceptanceDropsPoints: 100 }]) {
      const res = await create(tenant, person, { controlWeight: 50, variants: [{ versionId: version, weight: 50 }], ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
  });

  it('pauses a variant with clearly lower acceptance (once), not an equal one; its subjects go to the control; earlier receipts still check', async () => {
    const db = testDb();
    const tenant = await createTenant();
    const person = await createPerson(tenant, { permissions: ['books:publish'] });
    const losing = await versionOf(tenant, withBase(2, 15_500)); // solar 150.00 → 155.00
    const equal = await versionOf(tenant, withBase(1, 9_300)); // gutters 90.00 → 93.00
    const created = await create(tenant, person, {
      controlWeight: 34,
      variants: [
        { versionId: losing, weight: 33 },
        { versionId: equal, weight: 33 },
      ],
    });
    const id = created.body.data.experiment.id;
    const started = await start(tenant, person, id);
    expect(started.status, started.text).toBe(200);
    const definition = started.body.data.experiment;

    // 420 subjects, about 140 per arm; the customers of control and variant_2 accept 3 in 5
    // quotes, those of variant_1 1 in 10.
    type Made = { subject: string; arm: string; receipt: any; intentId: string };
    const made: Made[] = [];
    const subjects = Array.from({ length: 420 }, (_, i) => `guard-${i}-${randomUUID().slice(0, 6)}`);
    for (let i = 0; i < subjects.length; i += 10) {
      await Promise.all(
        subjects.slice(i, i + 10).map(async (subject) => {
          const res = await api('POST', '/v1/quotes', { key: tenant.keys.live, headers: { 'quote-subject': subject }, body: quoteRequest(tenant) });
          expect(res.status, res.text).toBe(201);
          const receipt = res.body.data.quoteReceipt;
          made.push({ subject, arm: receipt.experiment.arm, receipt, intentId: res.body.data.quoteIntent.id });
        }),
      );
    }
    const byArm = (arm: string) => made.filter((m) => m.arm === arm);
    for (const arm of ['control', 'variant_1', 'variant_2']) expect(byArm(arm).length).toBeGreaterThanOrEqual(100);
    const accepted = [...byArm('control').filter((_, i) => i % 5 < 3), ...byArm('variant_1').filter((_, i) => i % 10 === 0), ...byArm('variant_2').filter((_, i) => i % 5 < 3)];
    await db.quoteAcceptance.createMany({
      data: accepted.map((m) => ({
        quoteIntentId: m.intentId,
        receiptId: m.receipt.id,
        workspaceId: tenant.workspaceId,
        projectId: tenant.projectId,
        environmentId: tenant.environments.live,
        businessId: tenant.businessId,
        totalMinor: BigInt(m.receipt.computation.totalMinor),
        currency: 'USD',
        consentText: 'I agree to be contacted.',
        requestCorrelationId: randomUUID(),
        // As the acceptance verb copies them from the receipt.
        experimentId: m.receipt.experiment.experimentId,
        experimentArm: m.arm,
      })),
    });

    // The job, with SMTP set so that the owners' email is queued. A pause takes effect a minute
    // after the guardrail fires (quotes in flight keep their arm); here at once, not to wait.
    const firedAt = new Date();
    await withEnv({ SMTP_URL: 'smtp://127.0.0.1:1' }, () => pauseLosingArms(testContext(db, { now: firedAt }), { takesEffectAfterMs: 0 }));
    const read = (await api('GET', `${experiments(tenant)}/${id}`, { key: person.token })).body.data.experiment;
    expect(read.state).toBe('running');
    expect(read.arms[0].pausedAt).toBeUndefined();
    expect(read.arms[1]).toMatchObject({ name: 'variant_1', pausedAt: firedAt.toISOString() });
    expect(read.arms[1].pauseReason).toMatch(/^Pause variant_1: its acceptance rate is more than 5 points below the control's \(\d+%: at least [\d.]+ points below\)$/);
    expect(read.arms[2].pausedAt).toBeUndefined(); // the equal arm keeps running

    const events = await db.outboxEvent.findMany({ where: { subjectId: id, type: 'experiment.paused' } });
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ arm: 'variant_1', reason: read.arms[1].pauseReason, experiment: { id, arms: read.arms } });
    expect(events[0].environmentId).toBe(tenant.environments.live);
    const emails = await db.ownerNotification.findMany({ where: { kind: 'experiment_paused', subjectId: events[0].id } });
    expect(emails.map((e) => e.businessId)).toEqual([tenant.businessId]);

    // Not paused twice.
    await pauseLosingArms(testContext(db));
    expect(await db.outboxEvent.count({ where: { subjectId: id, type: 'experiment.paused' } })).toBe(1);
    const again = (await api('GET', `${experiments(tenant)}/${id}`, { key: person.token })).body.data.experiment;
    expect(again.arms).toEqual(read.arms);

    // From now on variant_1's subjects are priced with the control (same bucket); variant_2's keep their arm.
    const controlVersion = definition.arms[0].versionId;
    for (const before of byArm('variant_1').slice(0, 5)) {
      const res = await api('POST', '/v1/quotes', { key: tenant.keys.live, headers: { 'quote-subject': before.subject }, body: quoteRequest(tenant) });
      expect(res.status, res.text).toBe(201);
      const receipt = res.body.data.quoteReceipt;
      expect(receipt.experiment).toMatchObject({ arm: 'control', bucket: before.receipt.experiment.bucket });
      expect(receipt.bookVersionId).toBe(controlVersion);
      expect(assignArm(read, { subject: before.subject }).arm).toBe('control');
      expect(checkReceiptAssignment(receipt, read, before.subject)).toMatchObject({ status: 'matches', arm: 'control' });
      // The receipt made before the pause still recomputes with the definition published now.
      expect(checkReceiptAssignment(before.receipt, read, before.subject)).toEqual({ status: 'matches', arm: 'variant_1', bucket: before.receipt.experiment.bucket });
    }
    for (const before of byArm('variant_2').slice(0, 3)) {
      const res = await api('POST', '/v1/quotes', { key: tenant.keys.live, headers: { 'quote-subject': before.subject }, body: quoteRequest(tenant) });
      expect(res.body.data.quoteReceipt.experiment.arm).toBe('variant_2');
    }
  });
});
