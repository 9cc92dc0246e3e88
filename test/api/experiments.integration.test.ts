import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBookVersion } from '../../lib/books/create-book-version';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { readEvent } from '../../lib/events/store';
import { assignArm } from '../../lib/experiments/assignment';
import { checkSignature, keyRingOf, type SignedDocument } from '../../lib/receipts/receipt-signature';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Experiments (docs/experiments.md): members create and start them on a book; API-key quotes are
 * priced with the arm their subject (`Quote-Subject`, else the idempotency key) falls in, the
 * receipt names it and it recomputes offline; replays keep it; stopping sends everyone to the
 * control. Who may, and what is refused.
 */

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'experiments-'));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function verifyReceiptCli(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'verify-receipt.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

function save(name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

async function expectSigned(receipt: SignedDocument) {
  const keys = await api('GET', '/v1/receipt-signing-keys');
  expect(checkSignature(receipt, keyRingOf(keys.body))).toEqual({ status: 'verified', kid: receipt.signature!.kid });
}

describe('experiments', () => {
  let tenant: Tenant;
  let publisher: Person;
  let editor: Person;
  let variantId: string;
  const as = (person: Person) => ({ key: person.token });
  const base = () => `/v1/books/${tenant.bookId}/experiments`;

  beforeAll(async () => {
    tenant = await createTenant();
    [publisher, editor] = await Promise.all([
      createPerson(tenant, { permissions: ['books:edit', 'books:publish'] }),
      createPerson(tenant, { permissions: ['books:edit'] }),
    ]);
    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    variantId = (await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: cheaper })).id;
  });

  const create = (body: Record<string, unknown>, person = publisher) =>
    api('POST', base(), { ...as(person), body: { environment: 'live', name: 'Cheaper windows', controlWeight: 50, variants: [{ versionId: variantId, weight: 50 }], maxPriceDifferencePercent: 60, ...body } });
  const quote = (subject?: string, extra: Record<string, unknown> = {}) =>
    api('POST', '/v1/quotes', { key: tenant.keys.live, headers: subject === undefined ? {} : { 'quote-subject': subject }, body: quoteRequest(tenant, extra) });

  it('runs an experiment: same subject, same arm and price; the receipt names the arm, verifies, and recomputes offline; stop sends everyone to the control', async () => {
    const created = await create({});
    expect(created.status, created.text).toBe(201);
    const draft = created.body.data.experiment;
    expect(draft).toMatchObject({ bookId: tenant.bookId, environment: 'live', state: 'draft', primaryMetric: 'revenue_per_quote', weightUnit: 'percent', offeringIds: null });
    expect(draft.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(draft.arms).toEqual([
      { name: 'control', versionId: null, weight: 50, basisPoints: 5000 },
      { name: 'variant_1', versionId: variantId, weight: 50, basisPoints: 5000 },
    ]);

    // Before it starts, quotes are priced with the publication.
    const before = await quote('customer-0');
    expect(before.body.data.quoteReceipt.experiment).toBeNull();
    expect(before.body.data.quoteIntent.bookVersionId).toBe(tenant.versionId);

    const started = await api('POST', `${base()}/${draft.id}/start`, as(publisher));
    expect(started.status, started.text).toBe(200);
    const definition = started.body.data.experiment;
    expect(definition).toMatchObject({ id: draft.id, state: 'running', salt: draft.salt });
    expect(definition.arms[0]).toEqual({ name: 'control', versionId: tenant.versionId, weight: 50, basisPoints: 5000 });
    // The published definition reads back as started.
    const read = await api('GET', `${base()}/${draft.id}`, as(editor));
    expect(read.status).toBe(200);
    expect(read.body.data.experiment).toEqual(definition);
    const listed = await api('GET', base(), as(editor));
    expect(listed.body.data.experiments.map((e: { id: string }) => e.id)).toContain(draft.id);

    // A second experiment on the same book and environment cannot start while this one runs.
    const second = await create({ name: 'Another' });
    expect((await api('POST', `${base()}/${second.body.data.experiment.id}/start`, as(publisher))).status).toBe(409);
    // Starting twice is a conflict too.
    expect((await api('POST', `${base()}/${draft.id}/start`, as(publisher))).body.error.code).toBe('conflict');

    const versionOfArm = Object.fromEntries(definition.arms.map((a: { name: string; versionId: string }) => [a.name, a.versionId]));
    const priceOfArm: Record<string, number> = {};
    const kept: { subject: string; result: any; idempotencyKey: string }[] = [];
    for (let i = 1; i <= 24; i++) {
      const subject = `customer-${i}`;
      const idempotencyKey = `exp-${randomUUID()}`;
      const first = await quote(subject, { idempotencyKey });
      const again = await quote(subject);
      expect(first.status, first.text).toBe(201);
      const receipt = first.body.data.quoteReceipt;
      const expected = assignArm(definition, { subject });
      expect(receipt.experiment).toEqual({ arm: expected.arm, bucket: expected.bucket, experimentId: definition.id, subjectDigest: sha256(subject) });
      expect(again.body.data.quoteReceipt.experiment).toEqual(receipt.experiment);
      expect(first.body.data.quoteIntent.bookVersionId).toBe(versionOfArm[expected.arm]);
      expect(receipt.bookVersionId).toBe(versionOfArm[expected.arm]);
      expect(again.body.data.quoteReceipt.computation.totalMinor).toBe(receipt.computation.totalMinor);
      priceOfArm[expected.arm] ??= receipt.computation.totalMinor;
      expect(receipt.computation.totalMinor).toBe(priceOfArm[expected.arm]);
      kept.push({ subject, result: first.body.data, idempotencyKey });
    }
    // 24 subjects at 50/50: both arms are seen (a 2^-23 chance otherwise), and they price differently.
    expect(Object.keys(priceOfArm).sort()).toEqual(['control', 'variant_1']);
    expect(priceOfArm.variant_1).toBeLessThan(priceOfArm.control);

    // The receipt is signed as format 2, and its arm recomputes offline with the CLI.
    const sample = kept[0];
    await expectSigned(sample.result.quoteReceipt);
    const keysFile = save('keys.json', (await api('GET', '/v1/receipt-signing-keys')).body);
    const definitionFile = save('definition.json', read.body);
    const receiptFile = save('receipt.json', sample.result);
    const ok = verifyReceiptCli([receiptFile, '--keys', keysFile, '--experiment', definitionFile, '--subject', sample.subject]);
    expect(ok.status, ok.out).toBe(0);
    expect(ok.out).toContain(`arm "${sample.result.quoteReceipt.experiment.arm}"`);
    const wrongSubject = verifyReceiptCli([receiptFile, '--keys', keysFile, '--experiment', definitionFile, '--subject', 'someone-else']);
    expect(wrongSubject.status, wrongSubject.out).toBe(1);
    expect(wrongSubject.out).toContain('another subject');
    const forgedArm = { ...sample.result.quoteReceipt, experiment: { ...sample.result.quoteReceipt.experiment, arm: sample.result.quoteReceipt.experiment.arm === 'control' ? 'variant_1' : 'control' } };
    const forged = verifyReceiptCli([save('forged.json', forgedArm), '--keys', keysFile, '--experiment', definitionFile, '--subject', sample.subject]);
    expect(forged.status, forged.out).toBe(1);
    expect(verifyReceiptCli([receiptFile, '--keys', keysFile, '--subject', 'x']).status).toBe(2);

    // Its outcome event stores neither the computation nor the arm a second time (the receipt row
    // holds them); as every delivery sends it, the payload is the answer, arm and signature included.
    const stored = await testDb().outboxEvent.findFirstOrThrow({ where: { subjectId: sample.result.quoteIntent.id } });
    expect((stored.data as { quoteReceipt: object }).quoteReceipt).toMatchObject({ computation: null, experiment: null });
    expect((await readEvent(testDb(), tenant.environments.live, stored.id))?.data).toEqual(sample.result);

    // Without Quote-Subject the idempotency key is the subject.
    const keyed = `keyed-${randomUUID()}`;
    const bySubjectKey = await quote(undefined, { idempotencyKey: keyed });
    expect(bySubjectKey.body.data.quoteReceipt.experiment).toMatchObject({ subjectDigest: sha256(keyed), arm: assignArm(definition, { subject: keyed }).arm });

    // Test keeps its own publication: this experiment is Live's.
    const testQuote = await api('POST', '/v1/quotes', { key: tenant.keys.test, headers: { 'quote-subject': 'customer-1' }, body: quoteRequest(tenant) });
    expect(testQuote.body.data.quoteReceipt.experiment).toBeNull();

    // Stop: everyone is priced with the control (the publication) from now on.
    const stopped = await api('POST', `${base()}/${draft.id}/stop`, as(publisher));
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.body.data.experiment).toMatchObject({ state: 'stopped', stoppedAt: expect.any(String) });
    for (const { subject } of kept.slice(0, 8)) {
      const after = await quote(subject);
      expect(after.body.data.quoteReceipt.experiment).toBeNull();
      expect(after.body.data.quoteIntent.bookVersionId).toBe(tenant.versionId);
    }
    // Replays keep the arm they were priced with.
    for (const { subject, result, idempotencyKey } of kept.slice(0, 8)) {
      const replay = await quote(subject, { idempotencyKey });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data).toEqual(result);
    }
    expect((await api('POST', `${base()}/${draft.id}/stop`, as(publisher))).status).toBe(409);

    // The events, with the environment's id.
    const events = await testDb().outboxEvent.findMany({ where: { subjectId: draft.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['experiment.started', 'experiment.stopped']);
    expect(events[0].environmentId).toBe(tenant.environments.live);
  });

  it('leaves out offerings the experiment does not name, and splits by basis points', async () => {
    const own = await createTenant();
    const person = await createPerson(own, { permissions: ['books:publish'] });
    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    const variant = await createBookVersion(testContext(testDb()), { bookId: own.bookId, artifact: cheaper });
    const created = await api('POST', `/v1/books/${own.bookId}/experiments`, {
      key: person.token,
      body: { environment: 'test', name: 'Others only', weightUnit: 'basis_points', controlWeight: 0, variants: [{ versionId: variant.id, weight: 10_000 }], offeringIds: ['gutter_cleaning'] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.experiment.arms[1]).toMatchObject({ weight: 10_000, basisPoints: 10_000 });
    expect((await api('POST', `/v1/books/${own.bookId}/experiments/${created.body.data.experiment.id}/start`, { key: person.token })).status).toBe(200);
    const res = await api('POST', '/v1/quotes', { key: own.keys.test, headers: { 'quote-subject': 's-1' }, body: quoteRequest(own) });
    expect(res.body.data.quoteReceipt.experiment).toBeNull();
    expect(res.body.data.quoteIntent.bookVersionId).toBe(own.versionId);
    // The offering it names takes part: every subject falls in the one arm with weight.
    const gutters = await api('POST', '/v1/quotes', {
      key: own.keys.test,
      headers: { 'quote-subject': 's-1' },
      body: quoteRequest(own, { offeringId: 'gutter_cleaning', factors: { home_size: 'medium', storeys: '2' } }),
    });
    expect(gutters.body.data.quoteReceipt.experiment).toMatchObject({ arm: 'variant_1', subjectDigest: sha256('s-1') });
    expect(gutters.body.data.quoteIntent.bookVersionId).toBe(variant.id);
  });

  it('assigns the hosted page by a visitor-id cookie it sets', async () => {
    const own = await createTenant();
    const person = await createPerson(own, { permissions: ['books:publish'] });
    const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
    cheaper.offerings[0].basePriceMinor = 6000;
    const variant = await createBookVersion(testContext(testDb()), { bookId: own.bookId, artifact: cheaper });
    const created = await api('POST', `/v1/books/${own.bookId}/experiments`, {
      key: person.token,
      body: { environment: 'live', name: 'Hosted', controlWeight: 50, variants: [{ versionId: variant.id, weight: 50 }], maxPriceDifferencePercent: 60 },
    });
    const definition = (await api('POST', `/v1/books/${own.bookId}/experiments/${created.body.data.experiment.id}/start`, { key: person.token })).body.data.experiment;
    const { businessId: _b, bookId: _k, ...body } = quoteRequest(own);
    const first = await api('POST', '/v1/public_quotes', { body: { businessId: own.businessId, ...body } });
    expect(first.status, first.text).toBe(201);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^qps_visitor=[A-Za-z0-9_-]{22}; Path=\/v1\/public_quotes; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    const visitor = cookie.split(';')[0].split('=')[1];
    const expected = assignArm(definition, { subject: visitor });
    expect(first.body.data.quoteReceipt.experiment).toEqual({ arm: expected.arm, bucket: expected.bucket, experimentId: definition.id, subjectDigest: sha256(visitor) });
    for (let i = 0; i < 3; i++) {
      const again = await api('POST', '/v1/public_quotes', { headers: { cookie: `other=1; qps_visitor=${visitor}` }, body: { businessId: own.businessId, ...body } });
      expect(again.headers.get('set-cookie')).toBeNull();
      expect(again.body.data.quoteReceipt.experiment).toEqual(first.body.data.quoteReceipt.experiment);
    }
  });

  it('needs books:publish to create, start or stop (403 forbidden), and the book’s read rule to read', async () => {
    const refused = await create({}, editor);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    const draft = (await create({ name: 'Permission' })).body.data.experiment;
    for (const action of ['start', 'stop']) {
      const res = await api('POST', `${base()}/${draft.id}/${action}`, as(editor));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await api('GET', `${base()}/${draft.id}`, as(editor))).status).toBe(200);
    expect((await api('GET', `${base()}/${draft.id}`)).status).toBe(401);
  });

  it('answers 404 for another tenant’s book or experiment', async () => {
    const other = await createTenant();
    const outsider = await createPerson(other, { permissions: 'all' });
    const mine = (await create({ name: 'Mine' })).body.data.experiment;
    for (const [method, suffix] of [['GET', ''], ['POST', '/start'], ['POST', '/stop']] as const) {
      const res = await api(method, `${base()}/${mine.id}${suffix}`, as(outsider));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await api('GET', base(), as(outsider))).status).toBe(404);
    // My experiment's id under the outsider's own book is not theirs either.
    const viaOwnBook = await api('GET', `/v1/books/${other.bookId}/experiments/${mine.id}`, as(outsider));
    expect(viaOwnBook.status).toBe(404);
    expect((await api('GET', `${base()}/${randomUUID()}`, as(publisher))).status).toBe(404);
  });

  it('refuses bad input with 4xx in the envelope, never 500', async () => {
    const other = await createTenant();
    const cases: [string, Record<string, unknown>][] = [
      ['weights that do not sum to 100', { controlWeight: 50, variants: [{ versionId: variantId, weight: 40 }] }],
      ['basis points that do not sum to 10,000', { weightUnit: 'basis_points', controlWeight: 50, variants: [{ versionId: variantId, weight: 50 }] }],
      ['a variant of another book', { variants: [{ versionId: other.versionId, weight: 50 }] }],
      ['a variant that is no version', { variants: [{ versionId: randomUUID(), weight: 50 }] }],
      ['the same version twice', { controlWeight: 0, variants: [{ versionId: variantId, weight: 50 }, { versionId: variantId, weight: 50 }] }],
      ['a NUL byte', { name: 'bad\u0000name' }],
      ['a fractional weight', { controlWeight: 49.5, variants: [{ versionId: variantId, weight: 50.5 }] }],
      ['an unknown metric', { primaryMetric: 'clicks' }],
      ['no variants', { controlWeight: 100, variants: [] }],
      ['an unknown field', { control: 'v1' }],
    ];
    for (const [label, body] of cases) {
      const res = await create(body);
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect(res.body.error.code, label).toBe('invalid_request');
    }
    const notJson = await api('POST', base(), { ...as(publisher), rawBody: '{"environment":' });
    expect(notJson.status).toBe(400);
    const longSubject = await quote('x'.repeat(201));
    expect(longSubject.status).toBe(422);
    expect(longSubject.body.error.code).toBe('invalid_quote_request');
    // Starting with nothing published in the environment is a conflict.
    const unpublished = await createTenant({ publishTo: ['test'] });
    const person = await createPerson(unpublished, { permissions: ['books:publish'] });
    const v2 = await createBookVersion(testContext(testDb()), { bookId: unpublished.bookId, artifact: demoBookArtifact });
    const draft = await api('POST', `/v1/books/${unpublished.bookId}/experiments`, {
      key: person.token,
      body: { environment: 'live', name: 'Nothing live', controlWeight: 50, variants: [{ versionId: v2.id, weight: 50 }] },
    });
    const start = await api('POST', `/v1/books/${unpublished.bookId}/experiments/${draft.body.data.experiment.id}/start`, { key: person.token });
    expect(start.status).toBe(409);
    expect(start.body.error.code).toBe('conflict');
  });
});
