import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBookVersion } from '../../lib/books/create-book-version';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Promoting an arm (docs/experiments.md, "Promote"): a variant is published through the
 * publishing safeguard (refused on Live without the typed phrase, published with it), the
 * experiment is concluded with its winner, `experiment.concluded` is recorded, and quotes are
 * priced by the publication outside any experiment; the control concludes without publishing.
 * The trace of a quote names the arm that priced it.
 */
describe('promoting an experiment’s arm', () => {
  let tenant: Tenant;
  let publisher: Person;
  let editor: Person;
  let variantId: string;
  const as = (person: Person) => ({ key: person.token });
  const base = () => `/v1/books/${tenant.bookId}/experiments`;
  const quote = (subject: string) =>
    api('POST', '/v1/quotes', { key: tenant.keys.live, headers: { 'quote-subject': subject }, body: quoteRequest(tenant) });
  const promote = (experimentId: string, body: Record<string, unknown>, person = publisher) =>
    api('POST', `${base()}/${experimentId}/promote`, { ...as(person), body });
  const liveNumber = async () => (await api('GET', `/v1/books/${tenant.bookId}`, as(publisher))).body.data.book.publications.live.number;
  const records = async () => (await api('GET', `/v1/books/${tenant.bookId}/publications`, as(publisher))).body.data.publications;
  const startExperiment = async (name: string, versionId: string) => {
    const created = await api('POST', base(), {
      ...as(publisher),
      body: { environment: 'live', name, controlWeight: 50, variants: [{ versionId, weight: 50 }], maxPriceDifferencePercent: 60 },
    });
    expect(created.status, created.text).toBe(201);
    const started = await api('POST', `${base()}/${created.body.data.experiment.id}/start`, as(publisher));
    expect(started.status, started.text).toBe(200);
    return started.body.data.experiment as { id: string; arms: { name: string; versionId: string }[] };
  };

  beforeAll(async () => {
    tenant = await createTenant();
    [publisher, editor] = await Promise.all([
      createPerson(tenant, { permissions: ['books:edit', 'books:publish'] }),
      createPerson(tenant, { permissions: ['books:edit'] }),
    ]);
    // v2 halves the window-cleaning base price: every quote the control priced would change by 50%.
    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    variantId = (await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: cheaper })).id;
  });

  it('publishes the variant through the safeguard, concludes the experiment, records the event, and prices quotes with the new publication', async () => {
    const running = await startExperiment('Spring prices', variantId);
    const priced: Record<string, { intentId: string; bucket: number }> = {};
    for (let i = 0; i < 16; i++) {
      const res = await quote(`promote-${i}`);
      expect(res.status, res.text).toBe(201);
      const { arm, bucket } = res.body.data.quoteReceipt.experiment;
      priced[arm] ??= { intentId: res.body.data.quoteIntent.id, bucket };
    }
    // 16 subjects at 50/50: both arms are seen (a 2^-15 chance otherwise).
    expect(Object.keys(priced).sort()).toEqual(['control', 'variant_1']);

    // The trace names the arm that priced the quote.
    const trace = await api('GET', `/v1/quote-intents/${priced.variant_1.intentId}/trace`, as(editor));
    expect(trace.status, trace.text).toBe(200);
    expect(trace.body.data.experiment).toEqual({ id: running.id, name: 'Spring prices', arm: 'variant_1', bucket: priced.variant_1.bucket, buckets: 10_000 });
    expect(trace.body.data.bookVersion.id).toBe(variantId);

    // Without the typed phrase the safeguard refuses, as publishing would, and nothing changes.
    const refused = await promote(running.id, { arm: 'variant_1' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error.code).toBe('invalid_request');
    expect(refused.body.error.details).toMatchObject({
      fields: { confirmation: ['type "publish v2" to publish'] },
      confirmationPhrase: 'publish v2',
      impact: { guard: { requiresConfirmation: true } },
    });
    expect((await promote(running.id, { arm: 'variant_1', confirmation: 'publish v3' })).status).toBe(400);
    expect((await api('GET', `${base()}/${running.id}`, as(editor))).body.data.experiment.state).toBe('running');
    expect(await liveNumber()).toBe(1);

    // With it: published, concluded with its winner.
    const promoted = await promote(running.id, { arm: 'variant_1', confirmation: ' Publish v2 ' });
    expect(promoted.status, promoted.text).toBe(200);
    const concluded = promoted.body.data.experiment;
    expect(concluded).toMatchObject({
      id: running.id,
      state: 'concluded',
      concludedAt: expect.any(String),
      stoppedAt: concluded.concludedAt,
      winner: { arm: 'variant_1', versionId: variantId },
    });
    expect(await liveNumber()).toBe(2);
    const [record] = await records();
    expect(record).toMatchObject({ environment: 'live', version: { id: variantId }, previousVersion: { id: tenant.versionId }, publishedBy: publisher.email, confirmation: 'Publish v2' });
    expect(record.impact.guard.requiresConfirmation).toBe(true);

    // It stays readable, concluded, with its winner.
    const read = await api('GET', `${base()}/${running.id}`, as(editor));
    expect(read.status).toBe(200);
    expect(read.body.data.experiment).toEqual(concluded);

    // The events: started, then concluded (with the publication's own event in the same commit).
    const events = await testDb().outboxEvent.findMany({ where: { subjectId: running.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['experiment.started', 'experiment.concluded']);
    expect(events[1].environmentId).toBe(tenant.environments.live);
    expect(events[1].data).toEqual({ experiment: concluded, winner: { arm: 'variant_1', versionId: variantId }, concludedBy: publisher.userId });
    const published = await testDb().outboxEvent.findMany({ where: { subjectId: variantId, type: 'book_version.published' } });
    expect(published).toHaveLength(1);

    // Every quote is priced by the new publication, outside any experiment, whatever its subject.
    for (let i = 0; i < 6; i++) {
      const after = await quote(`promote-${i}`);
      expect(after.body.data.quoteReceipt.experiment).toBeNull();
      expect(after.body.data.quoteIntent.bookVersionId).toBe(variantId);
      const afterTrace = await api('GET', `/v1/quote-intents/${after.body.data.quoteIntent.id}/trace`, as(editor));
      expect(afterTrace.body.data.experiment).toBeNull();
    }

    // Concluded is final.
    const again = await promote(running.id, { arm: 'variant_1', confirmation: 'publish v2' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect((await api('POST', `${base()}/${running.id}/stop`, as(publisher))).status).toBe(409);
  });

  it('promotes the control of a stopped experiment: concluded, nothing published', async () => {
    // The publication is v2 now (the test above); the variant here is v1.
    const running = await startExperiment('Back to v1?', tenant.versionId);
    expect((await api('POST', `${base()}/${running.id}/stop`, as(publisher))).status).toBe(200);
    const before = await records();
    const promoted = await promote(running.id, { arm: 'control' });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body.data.experiment).toMatchObject({ state: 'concluded', winner: { arm: 'control', versionId: variantId } });
    // stoppedAt is when it stopped, not when it was concluded.
    expect(promoted.body.data.experiment.stoppedAt <= promoted.body.data.experiment.concludedAt).toBe(true);
    expect(await records()).toEqual(before);
    expect(await liveNumber()).toBe(2);
    const events = await testDb().outboxEvent.findMany({ where: { subjectId: running.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['experiment.started', 'experiment.stopped', 'experiment.concluded']);
    const after = await quote('promote-0');
    expect(after.body.data.quoteReceipt.experiment).toBeNull();
    expect(after.body.data.quoteIntent.bookVersionId).toBe(variantId);
  });

  it('refuses a draft, an arm the experiment does not have, and bad bodies', async () => {
    const draft = (await api('POST', base(), { ...as(publisher), body: { environment: 'test', name: 'Draft', controlWeight: 50, variants: [{ versionId: variantId, weight: 50 }], maxPriceDifferencePercent: 60 } }))
      .body.data.experiment;
    const notStarted = await promote(draft.id, { arm: 'control' });
    expect(notStarted.status).toBe(409);
    expect(notStarted.body.error.code).toBe('conflict');
    expect((await api('POST', `${base()}/${draft.id}/start`, as(publisher))).status).toBe(200);
    const unknownArm = await promote(draft.id, { arm: 'variant_2' });
    expect(unknownArm.status).toBe(400);
    expect(unknownArm.body.error.details.fields.arm).toEqual(['one of: control, variant_1']);
    for (const body of [{}, { arm: 'winner' }, { arm: 'control', extra: 1 }, { arm: 'control', confirmation: 'x'.repeat(101) }, { arm: 'control\u0000' }]) {
      const res = await promote(draft.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    expect((await promote(randomUUID(), { arm: 'control' })).status).toBe(404);
    // Still running after all that.
    expect((await api('GET', `${base()}/${draft.id}`, as(publisher))).body.data.experiment.state).toBe('running');
    expect((await api('POST', `${base()}/${draft.id}/stop`, as(publisher))).status).toBe(200);
  });

  it('needs books:publish (403 forbidden), and answers 404 for another tenant', async () => {
    const running = (await api('POST', base(), { ...as(publisher), body: { environment: 'test', name: 'Rights', controlWeight: 50, variants: [{ versionId: variantId, weight: 50 }], maxPriceDifferencePercent: 60 } }))
      .body.data.experiment;
    expect((await api('POST', `${base()}/${running.id}/start`, as(publisher))).status).toBe(200);
    const refused = await promote(running.id, { arm: 'control' }, editor);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await api('POST', `${base()}/${running.id}/promote`, { body: { arm: 'control' } })).status).toBe(401);

    const other = await createTenant();
    const outsider = await createPerson(other, { permissions: 'all' });
    const foreign = await promote(running.id, { arm: 'control' }, outsider);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const viaOwnBook = await api('POST', `/v1/books/${other.bookId}/experiments/${running.id}/promote`, { ...as(outsider), body: { arm: 'control' } });
    expect(viaOwnBook.status).toBe(404);
    expect((await api('GET', `${base()}/${running.id}`, as(publisher))).body.data.experiment.state).toBe('running');
  });
});
