import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReadiness } from '../../lib/receipts/readiness';
import { forgetReceiptSigner, receiptSigningKeySet } from '../../lib/receipts/signing-keys';
import { api } from '../support/api-client';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';

/**
 * Issue 31: an instance is ready only when it can quote, and the receipt key set is never empty
 * once it is (a verifier that fetches it before the first quote already finds the key).
 */
describe('readiness and the first receipt signing key', () => {
  let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
  // The signer is remembered per process: forgotten around the test, whose database is its own.
  beforeAll(async () => {
    iso = await createIsolatedDatabase();
    forgetReceiptSigner();
  });
  afterAll(async () => {
    forgetReceiptSigner();
    await iso.close();
  });

  it('a database where nothing was ever quoted: the key set already has the key that will sign, and readiness names it', async () => {
    expect(await iso.db.receiptSigningKey.count()).toBe(0);
    const set = await receiptSigningKeySet({ db: iso.db });
    expect(set.keys).toHaveLength(1);
    const ready = await checkReadiness({ db: iso.db, now: new Date() });
    expect(ready).toEqual({ ready: true, receiptSigningKid: set.keys[0].kid });
    expect(await iso.db.receiptSigningKey.count()).toBe(1);
  });

  it('GET /v1/status/ready answers 200 with the signing key, never cached', async () => {
    const res = await api('GET', '/v1/status/ready');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ready: true, receiptSigningKid: expect.stringMatching(/^rsk_/) });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
