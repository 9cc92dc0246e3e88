import { completePayload } from '../../lib/events/store';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { checkSignature, keyRingOf, receiptInconsistencies, type SignedDocument } from '../../lib/receipts/receipt-signature';
import type { ReceiptSigningKeySet } from '../../lib/receipts/schemas';
import { rotateReceiptSigningKey } from '../../lib/receipts/signing-keys';
import { api } from '../support/api-client';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';

/**
 * Signed receipts (issue "verifiable prices"): every receipt of every surface and outcome carries
 * an Ed25519 signature that verifies with the published key set, the same wherever the receipt
 * travels; a rotation keeps old receipts verifying; any alteration is detected.
 */

const db = testDb();

async function publishedKeys(): Promise<ReceiptSigningKeySet> {
  const res = await api('GET', '/v1/receipt-signing-keys');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  return res.body;
}

async function expectVerifies(document: SignedDocument) {
  expect(document.signature).toMatchObject({ alg: 'Ed25519', kid: expect.stringMatching(/^rsk_/), value: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/) });
  expect(checkSignature(document, keyRingOf(await publishedKeys()))).toEqual({ status: 'verified', kid: document.signature!.kid });
}

describe('signed receipts', () => {
  let tenant: Tenant;
  let owner: Person;
  beforeAll(async () => {
    tenant = await createTenant();
    owner = await createPerson(tenant, { businessRole: 'owner', permissions: ['logs:read'] });
  });

  it('signs every outcome of the public surface, and the signature travels with the receipt unchanged', async () => {
    const bodies = [
      { offeringId: demoExample.offeringId, factors: demoExample.factors },
      { offeringId: 'window_cleaning', factors: { storeys: null } },
      { offeringId: 'pool_cleaning' },
    ];
    const outcomes: string[] = [];
    for (const body of bodies) {
      const idempotencyKey = `sig-${randomUUID()}`;
      const made = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...body, idempotencyKey } });
      expect(made.status).toBe(201);
      const receipt = made.body.data.quoteReceipt;
      outcomes.push(receipt.outcome);
      await expectVerifies(receipt);
      expect(receiptInconsistencies(receipt)).toEqual([]);

      const replay = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...body, idempotencyKey } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.quoteReceipt).toEqual(receipt);

      const fetched = await api('GET', `/v1/public_quotes/${made.body.data.quoteIntent.id}`);
      expect(fetched.body.data.quoteReceipt).toEqual(receipt);

      const trace = await api('GET', `/v1/quote-intents/${made.body.data.quoteIntent.id}/trace`, { key: owner.token });
      expect(trace.body.data.quoteReceipt).toEqual(receipt);

      // The webhook payload is the quote as the API answered it: the same signed receipt, its
      // computation and experiment put back from the receipt row (the event stores no second copy).
      const event = await db.outboxEvent.findFirstOrThrow({ where: { subjectId: made.body.data.quoteIntent.id } });
      expect((event.data as { quoteReceipt: { computation: unknown } }).quoteReceipt.computation).toBeNull();
      const { computation, experiment } = await db.quoteReceipt.findUniqueOrThrow({ where: { id: receipt.id } });
      const completed = completePayload(event.data, { receipt_id: event.receiptId, receipt_computation: computation, receipt_experiment: experiment });
      expect((completed as { quoteReceipt: unknown }).quoteReceipt).toEqual(receipt);
    }
    expect(outcomes).toEqual(['succeeded', 'requires_input', 'failed']);
  });

  it('signs receipts of API keys, members and the account surface', async () => {
    const apiQuote = await api('POST', '/v1/quotes', { key: tenant.keys.test, body: quoteRequest(tenant) });
    expect(apiQuote.status).toBe(201);
    await expectVerifies(apiQuote.body.data.quoteReceipt);

    const noBook = await createTenant({ publishTo: [] });
    const unpublished = await api('POST', '/v1/quotes', { key: noBook.keys.live, body: quoteRequest(noBook) });
    expect(unpublished.body.data.quoteReceipt.failure.code).toBe('no_published_version');
    await expectVerifies(unpublished.body.data.quoteReceipt);

    const memberQuote = await api('POST', `/v1/businesses/${tenant.businessId}/quotes`, { key: owner.token, body: { bookId: tenant.bookId, ...demoExample } });
    expect(memberQuote.status).toBe(201);
    await expectVerifies(memberQuote.body.data.quoteReceipt);

    const idempotencyKey = randomUUID();
    const accountQuote = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
      key: tenant.keys.live,
      headers: { 'idempotency-key': idempotencyKey },
      body: { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] },
    });
    expect(accountQuote.status).toBe(201);
    await expectVerifies(accountQuote.body);
    const replayed = await api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
      key: tenant.keys.live,
      headers: { 'idempotency-key': idempotencyKey },
      body: { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] },
    });
    expect(replayed.body).toEqual(accountQuote.body);
  });

  it('detects every alteration of every field of a real receipt', async () => {
    const made = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    const receipt = made.body.data.quoteReceipt as SignedDocument;
    const ring = keyRingOf(await publishedKeys());
    const leaves = leafPaths(receipt).filter(([first]) => first !== 'signature');
    expect(leaves.length).toBeGreaterThan(50);
    for (const path of leaves) {
      const altered = structuredClone(receipt);
      setAt(altered, path, alter(getAt(altered, path)));
      expect(checkSignature(altered, ring), path.join('.')).toEqual({ status: 'bad_signature', kid: receipt.signature!.kid });
    }
    // A field added or removed is an alteration too.
    expect(checkSignature({ ...receipt, note: 'discount agreed' }, ring).status).toBe('bad_signature');
    const { latencyMs: _dropped, ...withoutLatency } = receipt;
    expect(checkSignature(withoutLatency, ring).status).toBe('bad_signature');
    // The signature itself: another key id, another value, or none.
    expect(checkSignature({ ...receipt, signature: { ...receipt.signature!, kid: 'rsk_made_up' } }, ring)).toEqual({ status: 'unknown_kid', kid: 'rsk_made_up' });
    expect(checkSignature({ ...receipt, signature: { ...receipt.signature!, value: 'AAAA' } }, ring).status).toBe('bad_signature');
    expect(checkSignature({ ...receipt, signature: null }, ring)).toEqual({ status: 'unsigned' });
    // An altered total is named, not only caught.
    const cheaper = structuredClone(receipt) as SignedDocument & { computation: { totalMinor: number } };
    cheaper.computation.totalMinor -= 1000;
    expect(receiptInconsistencies(cheaper).join(' ')).toContain('computation.totalMinor');
  });

  it('keeps old receipts verifying after a rotation, and signs with the new key from then on', async () => {
    const accountQuote = () =>
      api('POST', `/v1/accounts/${tenant.projectId}/quotes`, {
        key: tenant.keys.live,
        headers: { 'idempotency-key': randomUUID() },
        body: { services: [{ service: demoExample.offeringId, selections: demoExample.factors }] },
      });
    // Every service process signs once, so that each remembers the key about to be retired.
    const [before, ...others] = await Promise.all(
      Array.from({ length: 6 }, () => api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } })),
    );
    const accountBefore = await Promise.all(Array.from({ length: 6 }, accountQuote));
    const oldKid = before.body.data.quoteReceipt.signature.kid;
    for (const made of [...others.map((o) => o.body.data.quoteReceipt), ...accountBefore.map((a) => a.body)]) expect(made.signature.kid).toBe(oldKid);

    const { kid: newKid, retiredKid } = await rotateReceiptSigningKey(testContext(db), { announceMinutes: 0 });
    expect(retiredKid).not.toBeNull();
    expect(newKid).not.toBe(oldKid);

    // The service process remembered the old key; its insert finds it retired and signs again.
    const after = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    expect(after.status).toBe(201);
    expect(after.body.data.quoteReceipt.signature.kid).toBe(newKid);
    await expectVerifies(after.body.data.quoteReceipt);
    await expectVerifies(before.body.data.quoteReceipt);
    // The account surface's insert re-checks the key the same way.
    for (const made of await Promise.all(Array.from({ length: 4 }, accountQuote))) {
      expect(made.status).toBe(201);
      expect(made.body.signature.kid).toBe(newKid);
      await expectVerifies(made.body);
    }
    await expectVerifies(accountBefore[0].body);

    const keys = (await publishedKeys()).keys;
    const current = keys.filter((key) => key.activeUntil === null);
    expect(current.map((key) => key.kid)).toEqual([newKid]);
    expect(keys.find((key) => key.kid === oldKid)).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig', activeUntil: expect.any(String) });
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['activeFrom', 'activeUntil', 'alg', 'crv', 'kid', 'kty', 'use', 'x']);

    // The private half never leaves the database, where it is sealed.
    const stored = await db.receiptSigningKey.findUniqueOrThrow({ where: { kid: newKid } });
    expect(stored.privateKeySealed).toMatch(/^v1\./);
    expect(JSON.stringify(keys)).not.toContain(stored.privateKeySealed);
  });

  it('announces a rotation: the next key is published before it signs, then takes over at its activeFrom', async () => {
    const quote = async () => (await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } })).body.data.quoteReceipt;
    const oldKid = (await quote()).signature.kid;
    // Announced 10 s ahead (a real rotation announces an hour ahead): the checks below must end
    // before it takes over, which at 3 s a loaded CI machine could not promise.
    const { kid: nextKid, retiredKid, activeFrom } = await rotateReceiptSigningKey(testContext(db), { announceMinutes: 10 / 60 });
    expect(retiredKid).toBe(oldKid);
    const announced = (await publishedKeys()).keys;
    expect(announced.find((key) => key.kid === nextKid)).toMatchObject({ activeFrom: activeFrom.toISOString(), activeUntil: null });
    expect(announced.find((key) => key.kid === oldKid)).toMatchObject({ activeUntil: activeFrom.toISOString() });
    // Meanwhile the current key still signs, and a second rotation waits for this one.
    expect((await quote()).signature.kid).toBe(oldKid);
    await expect(rotateReceiptSigningKey(testContext(db))).rejects.toMatchObject({ code: 'conflict' });

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, activeFrom.getTime() - Date.now() + 200)));
    const after = await quote();
    expect(after.signature.kid).toBe(nextKid);
    await expectVerifies(after);
    expect((await publishedKeys()).keys.filter((key) => key.activeUntil === null).map((key) => key.kid)).toEqual([nextKid]);
  });

  it('answers the recompute proof: identical for every demo offering, to members and to keys of the environment', async () => {
    for (const offering of demoBookArtifact.offerings) {
      const factors = Object.fromEntries(demoBookArtifact.factors.map((factor) => [factor.id, factor.options[0].id]));
      const made = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: { businessId: tenant.businessId, bookId: tenant.bookId, offeringId: offering.id, factors } });
      expect(made.status).toBe(201);
      const id = made.body.data.quoteIntent.id;
      for (const key of [owner.token, tenant.keys.live]) {
        const res = await api('POST', `/v1/quote-intents/${id}/verification`, { key });
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toMatchObject({
          quoteIntentId: id,
          verified: true,
          signature: { status: 'verified', kid: made.body.data.quoteReceipt.signature.kid },
          recomputation: { identical: true, firstDifference: null },
        });
        expect(res.body.data.recomputation.storedDigest).toBe(res.body.data.recomputation.recomputedDigest);
      }
    }
  });

  it('keeps Test and Live apart, and refuses strangers', async () => {
    const made = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest(tenant) });
    const path = `/v1/quote-intents/${made.body.data.quoteIntent.id}/verification`;
    expect((await api('POST', path, { key: tenant.keys.test })).status).toBe(404);
    // A workspace member without `logs:read` is told what is missing; someone of another workspace is told nothing.
    const member = await createPerson(tenant, { permissions: [] });
    expect((await api('POST', path, { key: member.token })).body.error.code).toBe('forbidden');
    const stranger = await createPerson(await createTenant(), { permissions: 'all', businessRole: 'owner' });
    expect((await api('POST', path, { key: stranger.token })).status).toBe(404);
    const logReader = await createPerson(tenant, { permissions: ['logs:read'] });
    expect((await api('POST', path, { key: logReader.token })).status).toBe(200);
    expect((await api('POST', path)).status).toBe(401);
  });

  it('reports a receipt from before signing as unsigned, and a forged one where it parts from the recomputation', async () => {
    const made = await api('POST', '/v1/quotes', { key: tenant.keys.live, body: quoteRequest(tenant) });
    const original = await db.quoteIntent.findUniqueOrThrow({ where: { id: made.body.data.quoteIntent.id }, include: { receipt: true } });
    const copy = async (receipt: Record<string, unknown>) => {
      const { receipt: _r, id: _i, ...intent } = original;
      const created = await db.quoteIntent.create({
        data: { ...intent, inputs: intent.inputs as object, idempotencyKey: `copy-${randomUUID()}`, receipt: { create: receipt as never } },
      });
      return created.id;
    };
    const { id: _id, quoteIntentId: _q, ...receipt } = original.receipt!;
    const base = { ...receipt, computation: receipt.computation as object };

    const legacy = await api('POST', `/v1/quote-intents/${await copy({ ...base, signature: null, signatureKid: null })}/verification`, { key: owner.token });
    expect(legacy.body.data).toMatchObject({ verified: false, signature: { status: 'unsigned', kid: null }, recomputation: { identical: true } });
    expect(legacy.body.data.signature.message).toContain('written before receipts were signed');

    const computation = structuredClone(base.computation) as { derivation: { sequence: number; deltaMinor: number }[] };
    computation.derivation[2].deltaMinor += 500;
    const forged = await api('POST', `/v1/quote-intents/${await copy({ ...base, computation })}/verification`, { key: owner.token });
    expect(forged.body.data).toMatchObject({
      verified: false,
      signature: { status: 'bad_signature' },
      recomputation: { identical: false, firstDifference: { path: 'computation.derivation[2]', sequence: computation.derivation[2].sequence } },
    });
    expect(forged.body.data.recomputation.storedDigest).not.toBe(forged.body.data.recomputation.recomputedDigest);
    expect(forged.body.data.recomputation.message).toContain(`derivation step ${computation.derivation[2].sequence}`);
  });
});

type Path = (string | number)[];

function leafPaths(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.length ? value.flatMap((item, i) => leafPaths(item, [...path, i])) : [path];
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length ? entries.flatMap(([key, inner]) => leafPaths(inner, [...path, key])) : [path];
  }
  return [path];
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((inner, key) => (inner as Record<string | number, unknown>)[key], value);
}

function setAt(value: unknown, path: Path, next: unknown) {
  const parent = getAt(value, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path.at(-1)!] = next;
}

/** The smallest change of a leaf: one more, one letter more, the other boolean, something for nothing. */
function alter(leaf: unknown): unknown {
  if (typeof leaf === 'number') return leaf + 1;
  if (typeof leaf === 'string') return `${leaf}x`;
  if (typeof leaf === 'boolean') return !leaf;
  if (Array.isArray(leaf)) return ['added'];
  if (leaf === null) return 0;
  return { added: true };
}
