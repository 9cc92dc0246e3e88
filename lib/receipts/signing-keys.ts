import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { rememberedPerProcess } from '../context/per-process';
import type { VerbContext } from '../context/verb-context';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { openSecret, sealSecret } from '../sealing/sealing-key';
import { checkSealingKey } from '../sealing/check-sealing-key';
import { signerFromSeed, type ReceiptSigner } from './receipt-signature';
import type { ReceiptSigningKeySet } from './schemas';
import { insertFirstSigningKey, readAnnouncedSigningKey, readCurrentSigningKey, readSigningKeys, replaceCurrentSigningKey, type ReceiptSigningKeyRow } from './store';

/**
 * The keys that sign receipts: made by the service (the first when an instance first needs one:
 * its readiness check, its key set or its first quote), the private half sealed at rest with
 * the sealing key (SEALING_KEY) like webhook signing secrets, never logged or returned. A
 * rotation announces the next key ahead (published with its `activeFrom`), then it signs from
 * that moment; old public keys stay published.
 */

/** How long a rotation publishes the next key before it signs: longer than verifiers cache the key set (5 min). */
export const DEFAULT_ANNOUNCE_MINUTES = 60;

/** The signer and when its key signs: [from, until). */
type HeldSigner = { signer: ReceiptSigner; from: number; until: number | null };

// The current signer, per process. The quote inserts re-check that its key signs at their
// instant; when a rotation elsewhere retired it, the quote forgets this and signs again.
const held = rememberedPerProcess<HeldSigner>('ReceiptSigner');

const heldSignsAt = (signer: HeldSigner, at: number) => signer.from <= at && (signer.until === null || at < signer.until);

/** The signer whose key signs at `now` (a request's instant). */
export async function currentReceiptSigner(db: DbOrTx, now: Date): Promise<ReceiptSigner> {
  let current = await held.get(() => loadSigner(db, now));
  if (!heldSignsAt(current, now.getTime())) {
    // An announced key took over (or the request is older than the key held): load the one of its instant.
    held.forget();
    current = await held.get(() => loadSigner(db, now));
  }
  return current.signer;
}

/** Forgets the remembered signer: its key was retired (or a test changed keys). */
export function forgetReceiptSigner(): void {
  held.forget();
}

async function loadSigner(db: DbOrTx, now: Date): Promise<HeldSigner> {
  await requireSealingKey(db);
  let current = await readCurrentSigningKey(db, now);
  if (!current) {
    await insertFirstSigningKey(db, mintKey(now));
    current = await readCurrentSigningKey(db, now);
  }
  if (!current) throw new ServiceError('service_unavailable', 'No receipt signing key could be made.');
  const privateKey = createPrivateKey({ key: Buffer.from(openSecret(current.privateKeySealed), 'base64url'), format: 'der', type: 'pkcs8' });
  return {
    signer: signerFromSeed(current.kid, Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url')),
    from: Math.min(current.createdAt.getTime(), now.getTime()), // the first key may be younger than the request
    until: current.retiredAt?.getTime() ?? null,
  };
}

async function requireSealingKey(db: DbOrTx): Promise<void> {
  const state = await checkSealingKey(db);
  if (!state.usable) throw new ServiceError('service_unavailable', `Receipts cannot be signed on this instance: ${state.reason}.`);
}

/** A new key signing from `from`: `rsk_` + date + random, so that a kid says roughly when it started. */
function mintKey(from: Date): Omit<ReceiptSigningKeyRow, 'retiredAt'> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url');
  return {
    kid: `rsk_${from.toISOString().slice(0, 10).replaceAll('-', '')}_${randomBytes(6).toString('base64url')}`,
    publicKey: x,
    privateKeySealed: sealSecret(der),
    createdAt: from,
  };
}

/**
 * Rotation (`npm run keys -- rotate-receipt-signing-key [--announce-minutes N]`): a new key is
 * published now and signs from `announceMinutes` later, when the current one stops; verifiers
 * that cached the key set meanwhile already know it. 0 switches at once (a key thought exposed).
 * One rotation at a time: while a key is announced, another is refused.
 */
export async function rotateReceiptSigningKey(
  { db, now, log }: VerbContext,
  { announceMinutes = DEFAULT_ANNOUNCE_MINUTES }: { announceMinutes?: number } = {},
): Promise<{ kid: string; retiredKid: string | null; activeFrom: Date }> {
  await requireSealingKey(db);
  const announced = await readAnnouncedSigningKey(db, now);
  if (announced) {
    throw new ServiceError('conflict', `Key ${announced.kid} is already announced to sign from ${announced.createdAt.toISOString()}; rotate again after that.`);
  }
  const activeFrom = new Date(now.getTime() + announceMinutes * 60_000);
  const key = mintKey(activeFrom);
  const retiredKid = await replaceCurrentSigningKey(db, key);
  forgetReceiptSigner();
  log.info({ kid: key.kid, retiredKid, activeFrom }, 'receipt signing key rotation');
  return { kid: key.kid, retiredKid, activeFrom };
}

/**
 * The published key set: every key that ever signed, and the next one once a rotation announces
 * it (its `activeFrom` ahead), so that every receipt keeps verifying. Never empty where receipts
 * can be signed: the first key is made here if no quote made it yet.
 */
export async function receiptSigningKeySet({ db, now = new Date() }: Pick<VerbContext, 'db'> & { now?: Date }): Promise<ReceiptSigningKeySet> {
  let keys = await readSigningKeys(db);
  if (keys.length === 0 && (await checkSealingKey(db)).usable) {
    await currentReceiptSigner(db, now);
    keys = await readSigningKeys(db);
  }
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
