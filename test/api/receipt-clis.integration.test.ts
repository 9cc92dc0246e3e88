import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { api } from '../support/api-client';
import { createTenant, testDb, type Tenant } from '../../lib/testing/factories';

/**
 * The receipt CLIs as a business or an auditor runs them: `npm run verify-receipt` offline with
 * a saved key set, and `npm run audit-receipts` over a business's receipts.
 */

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'receipt-cli-'));

function run(script: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

function save(name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

describe('npm run verify-receipt', () => {
  let keys: string;
  let receipt: Record<string, unknown> & { computation: { totalMinor: number } };
  beforeAll(async () => {
    const made = await api('POST', '/v1/public_quotes', { body: { businessId: (await createTenant()).businessId, ...demoExample } });
    receipt = made.body.data.quoteReceipt;
    keys = save('jwks.json', (await api('GET', '/v1/receipt-signing-keys')).body);
    save('answer.json', made.body);
  });

  it('verifies a saved receipt, or the whole API answer holding it, with a saved key set', () => {
    for (const file of [save('receipt.json', receipt), path.join(dir, 'answer.json')]) {
      const { status, out } = run('verify-receipt.ts', [file, '--keys', keys]);
      expect(status, out).toBe(0);
      expect(out).toContain(`receipt ${String(receipt.id)}: verified, signed by ${(receipt.signature as { kid: string }).kid}`);
    }
  });

  it('says why a receipt fails: an altered field, an unknown key, no signature', () => {
    const cheaper = structuredClone(receipt);
    cheaper.computation.totalMinor -= 1000;
    const altered = run('verify-receipt.ts', [save('altered.json', cheaper), '--keys', keys]);
    expect(altered.status).toBe(1);
    expect(altered.out).toContain('bad signature');
    expect(altered.out).toContain('altered field: computation.totalMinor');

    const unknown = run('verify-receipt.ts', [save('unknown.json', { ...receipt, signature: { ...(receipt.signature as object), kid: 'rsk_elsewhere' } }), '--keys', keys]);
    expect(unknown.status).toBe(1);
    expect(unknown.out).toContain('"rsk_elsewhere", which is not in the published key set');

    const unsigned = run('verify-receipt.ts', [save('unsigned.json', { ...receipt, signature: null }), '--keys', keys]);
    expect(unsigned.status).toBe(3);
    expect(unsigned.out).toContain('written before receipts were signed');

    const usage = run('verify-receipt.ts', [save('nothing.json', { hello: 'world' }), '--keys', keys]);
    expect(usage.status).toBe(2);
    expect(usage.out).toContain('holds no receipt');
  });
});

describe('npm run audit-receipts', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant();
    for (const factors of [demoExample.factors, { storeys: null }]) {
      const res = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, offeringId: demoExample.offeringId, factors } });
      expect(res.status).toBe(201);
    }
  });

  const audit = (...args: string[]) => run('audit-receipts.ts', ['--business', tenant.businessId, ...args], { DATABASE_URL: inject('databaseUrl') });

  it("checks every receipt of a business: signatures valid, recomputations identical", () => {
    const { status, out } = audit();
    expect(status, out).toBe(0);
    expect(out).toContain('2 receipts');
    expect(out).toContain('2 verified, 0 bad signature, 0 differ on recomputation, 0 unsigned');
  });

  // Four runs of the command, each a fresh Node process loading TypeScript: over a minute under CI's load.
  it('fails on a forged receipt and names its quote; a date after every receipt finds none', async () => {
    const db = testDb();
    const original = await db.quoteIntent.findFirstOrThrow({ where: { businessId: tenant.businessId, status: 'succeeded' }, include: { receipt: true } });
    const { receipt, id: _id, ...intent } = original;
    const { id: _r, quoteIntentId: _q, ...fields } = receipt!;
    const computation = structuredClone(fields.computation) as { totalMinor: number };
    computation.totalMinor += 1;
    const forged = await db.quoteIntent.create({
      data: { ...intent, inputs: intent.inputs as object, idempotencyKey: `forged-${randomUUID()}`, receipt: { create: { ...fields, computation, failure: undefined, experiment: undefined } } },
    });
    const { status, out } = audit();
    expect(status).toBe(1);
    expect(out).toContain('1 bad signature, 1 differ on recomputation');
    expect(out).toContain(`quote ${forged.id}: signature bad signature; recomputation differs`);

    const none = audit('--since', new Date(Date.now() + 60_000).toISOString());
    expect(none.status, none.out).toBe(0);
    expect(none.out).toContain('0 receipts');
    expect(audit('--since', 'yesterday').status).toBe(2);
  }, 240_000);
});
