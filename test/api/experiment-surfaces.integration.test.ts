import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBookVersion } from '../../lib/books/create-book-version';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { assignArm, checkReceiptAssignment, type AssignmentDefinition } from '../../lib/experiments/assignment';
import { rollUpExperimentAccountQuotes, rollUpExperimentCommitments } from '../../lib/experiments/store';
import { checkSignature, keyRingOf, type SignedDocument } from '../../lib/receipts/receipt-signature';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { settleAfterNewest } from '../support/rollup-settle';

/**
 * An experiment's surfaces (docs/experiments.md, "Surfaces"): the account surface's quotes take
 * part by Quote-Subject (or their idempotency key), sign their arm, and their commitments make
 * the committed-revenue metric; member quotes take part only when asked; a surface left out is
 * priced with the publication.
 */
describe('experiment surfaces', () => {
  let tenant: Tenant;
  let publisher: Person;
  let owner: Person;
  let variantVersionId: string;
  const as = (person: Person) => ({ key: person.token });
  const accountBody = { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] };
  const accountQuote = (subject: string | undefined, idempotencyKey: string = randomUUID()) =>
    api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
      key: tenant.keys.live,
      headers: { 'idempotency-key': idempotencyKey, ...(subject ? { 'quote-subject': subject } : {}) },
      body: accountBody,
    });

  async function startExperiment(body: Record<string, unknown>): Promise<AssignmentDefinition & { arms: { name: string; versionId: string; basisPoints: number }[] }> {
    const created = await api('POST', `/v1/books/${tenant.bookId}/experiments`, {
      ...as(publisher),
      body: { environment: 'live', name: 'Cheaper windows', controlWeight: 50, variants: [{ versionId: variantVersionId, weight: 50 }], maxPriceDifferencePercent: 60, ...body },
    });
    expect(created.status, created.text).toBe(201);
    const started = await api('POST', `/v1/books/${tenant.bookId}/experiments/${created.body.data.experiment.id}/start`, as(publisher));
    expect(started.status, started.text).toBe(200);
    return started.body.data.experiment;
  }

  function subjectsIn(definition: AssignmentDefinition, arm: string, count: number, prefix: string): string[] {
    const found: string[] = [];
    for (let i = 0; found.length < count; i++) {
      const subject = `${prefix}-${i}`;
      if (assignArm(definition, { subject }).arm === arm) found.push(subject);
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
    variantVersionId = (await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: cheaper })).id;
  });

  it('prices account quotes with the subject’s arm, signs the arm, and counts their commitments as committed revenue', async () => {
    const definition = await startExperiment({ surfaces: ['account'], primaryMetric: 'committed_revenue' });
    expect(definition).toMatchObject({ surfaces: ['account'], primaryMetric: 'committed_revenue' });
    const keys = keyRingOf((await api('GET', '/v1/receipt-signing-keys')).body);

    // API-key quotes are not a surface of this experiment: priced with the publication.
    const apiQuote = await api('POST', '/v1/quotes', { key: tenant.keys.live, headers: { 'quote-subject': 'someone' }, body: quoteRequest(tenant) });
    expect(apiQuote.status, apiQuote.text).toBe(201);
    expect(apiQuote.body.data.quoteReceipt.experiment).toBeNull();
    expect(apiQuote.body.data.quoteIntent.bookVersionId).toBe(tenant.versionId);

    const made: Record<string, { id: string; total: number; subject: string; idempotencyKey: string }[]> = { control: [], variant_1: [] };
    for (const arm of ['control', 'variant_1']) {
      for (const subject of subjectsIn(definition, arm, 3, `account-${arm}`)) {
        const idempotencyKey = randomUUID();
        const res = await accountQuote(subject, idempotencyKey);
        expect(res.status, res.text).toBe(201);
        const quote = res.body;
        expect(quote.experiment).toEqual({ experiment_id: definition.id, arm, bucket: expect.any(Number), subject_digest: expect.any(String) });
        expect(quote.book.version_id).toBe(arm === 'control' ? tenant.versionId : variantVersionId);
        expect(quote.decision).toBe('priced');
        // The arm is signed with the rest, and recomputes offline from the definition and the subject.
        expect(checkSignature(quote as SignedDocument, keys).status).toBe('verified');
        expect(checkReceiptAssignment(quote, definition, subject)).toEqual({ status: 'matches', arm, bucket: quote.experiment.bucket });
        expect(checkReceiptAssignment(quote, definition, 'someone-else').status).toBe('other_subject');
        made[arm].push({ id: quote.quote_id, total: quote.total.low_cents, subject, idempotencyKey });
      }
    }
    expect(made.variant_1[0].total).toBeLessThan(made.control[0].total);

    // A replay answers the quote as it was, arm and all; the same subject always gets the same arm.
    const first = made.variant_1[0];
    const replay = await accountQuote(first.subject, first.idempotencyKey);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.quote_id).toBe(first.id);
    const again = await accountQuote(first.subject);
    expect(again.body.experiment.arm).toBe('variant_1');
    made.variant_1.push({ id: again.body.quote_id, total: again.body.total.low_cents, subject: first.subject, idempotencyKey: '' });
    // Without a Quote-Subject the idempotency key is the subject.
    const keyed = randomUUID();
    const bySubjectlessKey = await accountQuote(undefined, keyed);
    const keyedArm = assignArm(definition, { subject: keyed }).arm;
    expect(bySubjectlessKey.body.experiment.arm).toBe(keyedArm);
    made[keyedArm].push({ id: bySubjectlessKey.body.quote_id, total: bySubjectlessKey.body.total.low_cents, subject: keyed, idempotencyKey: keyed });

    // One commitment in the control, two in the variant.
    const commit = async (quoteId: string) => {
      const res = await api('POST', `/v1/accounts/${tenant.projectId}/quotes/${quoteId}/commitment/confirm`, {
        key: tenant.keys.live,
        body: { external_ref: `order-${quoteId.slice(0, 8)}` },
      });
      expect(res.status, res.text).toBe(200);
    };
    await commit(made.control[0].id);
    await commit(made.variant_1[0].id);
    await commit(made.variant_1[1].id);

    const read = async () => {
      const res = await api('GET', `/v1/books/${tenant.bookId}/experiments/${definition.id}/results`, as(publisher));
      expect(res.status, res.text).toBe(200);
      return res.body.data.results;
    };
    const before = await read();
    const arm = (results: any, name: string) => results.arms.find((a: { name: string }) => a.name === name);
    for (const [name, committed] of [['control', [made.control[0]]], ['variant_1', [made.variant_1[0], made.variant_1[1]]]] as const) {
      expect(arm(before, name)).toMatchObject({ quotes: made[name].length, commitments: committed.length, acceptances: 0, currency: apiQuote.body.data.quoteReceipt.computation.currency });
    }
    expect(before.metric).toBe('committed_revenue');
    expect(before.comparisons[0]).toMatchObject({ arm: 'variant_1', metric: 'committed_revenue' });

    // The minute roll-up counts them once: the same answer after it.
    // With a settle time just past this test's newest rows.
    const quotesSettle = await settleAfterNewest(testDb(), `SELECT max(created_at) FROM account_quotes WHERE experiment->>'experiment_id' = $1`, definition.id);
    expect(await rollUpExperimentAccountQuotes(testDb(), quotesSettle)).toBeGreaterThanOrEqual(8);
    const commitmentsSettle = await settleAfterNewest(
      testDb(),
      `SELECT max(c.confirmed_at) FROM commitments c JOIN account_quotes aq ON aq.id = c.account_quote_id WHERE aq.experiment->>'experiment_id' = $1`,
      definition.id,
    );
    expect(await rollUpExperimentCommitments(testDb(), commitmentsSettle)).toBeGreaterThanOrEqual(3);
    const after = await read();
    expect(after.arms).toEqual(before.arms);
    expect(after.comparisons).toEqual(before.comparisons);

    const stopped = await api('POST', `/v1/books/${tenant.bookId}/experiments/${definition.id}/stop`, as(publisher));
    expect(stopped.status, stopped.text).toBe(200);
    // Stopped: everyone is priced with the publication, and the quote records no arm.
    const afterStop = await accountQuote(made.variant_1[0].subject);
    expect(afterStop.body.experiment).toBeUndefined();
    expect(afterStop.body.book.version_id).toBe(tenant.versionId);
  });

  it('takes member quotes only when asked, and leaves the surfaces it does not name to the publication', async () => {
    const definition = await startExperiment({ surfaces: ['member'], controlWeight: 0, variants: [{ versionId: variantVersionId, weight: 100 }] });
    const member = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, {
      ...as(owner),
      body: { bookId: tenant.bookId, ...demoExample, idempotencyKey: `member-${randomUUID()}` },
    });
    expect(member.status, member.text).toBe(201);
    expect(member.body.data.quoteReceipt.experiment).toMatchObject({ experimentId: definition.id, arm: 'variant_1' });
    expect(member.body.data.quoteIntent.bookVersionId).toBe(variantVersionId);

    const account = await accountQuote('anyone');
    expect(account.body.experiment).toBeUndefined();
    expect(account.body.book.version_id).toBe(tenant.versionId);
    const { businessId, bookId: _bookId, ...body } = quoteRequest(tenant);
    const hosted = await api('POST', '/v1/public_quotes', { body: { businessId, ...body } });
    expect(hosted.status, hosted.text).toBe(201);
    expect(hosted.body.data.quoteReceipt.experiment).toBeNull();
    const apiQuote = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest(tenant) });
    expect(apiQuote.body.data.quoteReceipt.experiment).toBeNull();

    // Publishing in the experiment's environment would not reach its quotes: refused until it stops.
    const publish = async () => {
      const body = { versionId: variantVersionId, environment: 'live' };
      const first = await api('POST', `/v1/books/${tenant.bookId}/publications`, { ...as(publisher), body });
      const phrase = first.status === 400 ? first.body.error.details?.confirmationPhrase : undefined;
      return phrase ? api('POST', `/v1/books/${tenant.bookId}/publications`, { ...as(publisher), body: { ...body, confirmation: phrase } }) : first;
    };
    const refused = await publish();
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', details: { experimentId: definition.id } });
    expect(refused.body.error.message).toContain('Stop the experiment, or promote');
    // Nothing moved: the publication keeps its version and its experiment.
    expect((await testDb().publication.findFirstOrThrow({ where: { bookId: tenant.bookId, experimentId: definition.id } })).bookVersionId).toBe(tenant.versionId);
    await api('POST', `/v1/books/${tenant.bookId}/experiments/${definition.id}/stop`, as(publisher));
    const published = await publish();
    expect(published.status, published.text).toBe(200);
  });

  it('refuses unknown or repeated surfaces with 400, and defaults to the customer-facing three', async () => {
    const post = (surfaces: unknown) =>
      api('POST', `/v1/books/${tenant.bookId}/experiments`, {
        ...as(publisher),
        body: { environment: 'test', name: 'x', controlWeight: 50, variants: [{ versionId: variantVersionId, weight: 50 }], ...(surfaces === undefined ? {} : { surfaces }) },
      });
    for (const bad of [[], ['email'], ['api', 'api'], 'api', ['api\u0000']]) {
      const res = await post(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const defaulted = await post(undefined);
    expect(defaulted.status, defaulted.text).toBe(201);
    expect(defaulted.body.data.experiment.surfaces).toEqual(['hosted', 'api', 'account']);
  });
});
