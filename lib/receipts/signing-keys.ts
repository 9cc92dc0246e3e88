import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { rememberedPerProcess } from '../context/per-process';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { openSecret, sealSecret } from '../sealing/sealing-key';
import { checkSealingKey } from '../sealing/check-sealing-key';
import { signerFromSeed, type ReceiptSigner } from './receipt-signature';
import type { ReceiptSigningKeySet } from './schemas';
import { insertFirstSigningKey, readCurrentSigningKey, readSigningKeys, replaceCurrentSigningKey, type ReceiptSigningKeyRow } from './store';

/**
 * The keys that sign receipts: made by the service (the first on first use), the private half
 * sealed at rest with the sealing key (SEALING_KEY) like webhook signing secrets, never logged or returned.
 * A rotation makes a new key current; old public keys stay published.
 */

// The current signer, per process. The quote insert re-checks that its kid is still current;
// when a rotation elsewhere retired it, the quote forgets this and signs again.
const signer = rememberedPerProcess<ReceiptSigner>('ReceiptSigner');

export function currentReceiptSigner(db: DbOrTx): Promise<ReceiptSigner> {
  return signer.get(() => loadSigner(db));
}

/** Forgets the remembered signer: its key was retired (or a test changed keys). */
export function forgetReceiptSigner(): void {
  signer.forget();
}

async function loadSigner(db: DbOrTx): Promise<ReceiptSigner> {
  await requireSealingKey(db);
  let current = await readCurrentSigningKey(db);
  if (!current) {
    await insertFirstSigningKey(db, mintKey(new Date()));
    current = await readCurrentSigningKey(db);
  }
  if (!current) throw new ServiceError('service_unavailable', 'No receipt signing key could be made.');
  const privateKey = createPrivateKey({ key: Buffer.from(openSecret(current.privateKeySealed), 'base64url'), format: 'der', type: 'pkcs8' });
  return signerFromSeed(current.kid, Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url'));
}

async function requireSealingKey(db: DbOrTx): Promise<void> {
  const state = await checkSealingKey(db);
  if (!state.usable) throw new ServiceError('service_unavailable', `Receipts cannot be signed on this instance: ${state.reason}.`);
}

/** A new key: `rsk_` + date + random, so that a kid says roughly when it started. */
function mintKey(now: Date): Omit<ReceiptSigningKeyRow, 'retiredAt'> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url');
  return {
    kid: `rsk_${now.toISOString().slice(0, 10).replaceAll('-', '')}_${randomBytes(6).toString('base64url')}`,
    publicKey: x,
    privateKeySealed: sealSecret(der),
    createdAt: now,
  };
}

/** Makes a new key current and retires the previous one (`npm run keys -- rotate-receipt-signing-key`). */
export async function rotateReceiptSigningKey({ db, now, log }: VerbContext): Promise<{ kid: string; retiredKid: string | null }> {
  await requireSealingKey(db);
  const key = mintKey(now);
  const retiredKid = await replaceCurrentSigningKey(db, key);
  forgetReceiptSigner();
  log.info({ kid: key.kid, retiredKid }, 'receipt signing key rotated');
  return { kid: key.kid, retiredKid };
}

/** The published key set: every key that ever signed, so that every receipt keeps verifying. */
export async function receiptSigningKeySet({ db }: Pick<VerbContext, 'db'>): Promise<ReceiptSigningKeySet> {
  const keys = await readSigningKeys(db);
  return {
    keys: keys.map((key) => ({
      kty: 'OKP',
      crv: 'Ed25519',
      kid: key.kid,
      use: 'sig',
      alg: 'EdDSA',
      x: key.publicKey,
      activeFrom: key.createdAt.toISOString(),
      activeUntil: key.retiredAt?.toISOString() ?? null,
    })),
  };
}
