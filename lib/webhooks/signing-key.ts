import { timingSafeEqual } from 'node:crypto';
import type { VerbContext } from '../context/verb-context';
import { rememberedPerProcess } from '../context/per-process';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { openSecret, secretKeyCheckValue, secretKeyProblem } from './secret-box';
import { insertKeyCheckValue, readKeyCheckValue, readOldestEndpointSecret } from './store';

/** Whether this process can seal and open webhook signing secrets, and if not, why. */
export type SigningKeyState = { usable: true } | { usable: false; reason: string };

const CHECK_NAME = 'webhook_secret_key';

// One answer per process (the key comes from the environment, which does not change while it runs).
const signingKeyState = rememberedPerProcess<SigningKeyState>('SigningKey');

/**
 * Checks WEBHOOK_SECRET_KEY against the database: it must be set, well-formed, and the key the
 * stored signing secrets were sealed with. The first instance to start with a key records its
 * check value (after opening an existing secret with it, for databases from before the check);
 * every later instance compares with that. A failed database read is not remembered.
 */
export function checkSigningKey(db: DbOrTx): Promise<SigningKeyState> {
  return signingKeyState.get(() => compareWithDatabase(db));
}

/** Forgets the remembered answer (tests that change WEBHOOK_SECRET_KEY in-process). */
export function forgetSigningKeyCheck(): void {
  signingKeyState.forget();
}

async function compareWithDatabase(db: DbOrTx): Promise<SigningKeyState> {
  const problem = secretKeyProblem();
  if (problem) return { usable: false, reason: problem };
  const ours = secretKeyCheckValue();
  let stored = await readKeyCheckValue(db, CHECK_NAME);
  if (stored === undefined) {
    const sealed = await readOldestEndpointSecret(db);
    if (sealed !== undefined && !opens(sealed)) return { usable: false, reason: DIFFERENT_KEY };
    // Two instances starting at once with different keys: the first insert wins, the other sees it below.
    await insertKeyCheckValue(db, CHECK_NAME, ours);
    stored = await readKeyCheckValue(db, CHECK_NAME);
  }
  const same = stored !== undefined && stored.length === ours.length && timingSafeEqual(Buffer.from(stored), Buffer.from(ours));
  return same ? { usable: true } : { usable: false, reason: DIFFERENT_KEY };
}

const DIFFERENT_KEY = 'WEBHOOK_SECRET_KEY is not the key the signing secrets in the database were sealed with (every instance must have the same key)';

function opens(sealed: string): boolean {
  try {
    openSecret(sealed);
    return true;
  } catch {
    return false;
  }
}

/** For writes that seal a new secret: refuses (503) rather than seal one that other instances could not open. */
export async function requireSigningKey({ db }: VerbContext): Promise<void> {
  const state = await checkSigningKey(db);
  if (!state.usable) throw new ServiceError('service_unavailable', `Webhook signing secrets cannot be made on this instance: ${state.reason}.`);
}
