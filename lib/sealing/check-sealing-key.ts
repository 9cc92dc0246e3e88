import { timingSafeEqual } from 'node:crypto';
import type { VerbContext } from '../context/verb-context';
import { rememberedPerProcess } from '../context/per-process';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { configuredSealingKey, openSecret, sealingKeyCheckValue, sealingKeyProblem } from './sealing-key';
import { insertKeyCheckValue, readKeyCheckValue, readOldestSealedSecret } from './store';

/** Whether this process can seal and open secrets (webhook signing secrets, receipt signing keys), and if not, why. */
export type SealingKeyState = { usable: true } | { usable: false; reason: string };

// Recorded under its former name: the check values of databases from before the rename still count.
const CHECK_NAME = 'webhook_secret_key';

// One answer per process (the key comes from the environment, which does not change while it runs).
const sealingKeyState = rememberedPerProcess<SealingKeyState>('SealingKey');

/**
 * Checks the sealing key against the database: it must be set, well-formed, and the key the
 * stored secrets were sealed with. The first instance to start with a key records its check
 * value (after opening an existing secret with it, for databases from before the check); every
 * later instance compares with that. A failed database read is not remembered.
 */
export function checkSealingKey(db: DbOrTx): Promise<SealingKeyState> {
  return sealingKeyState.get(() => compareWithDatabase(db));
}

/** Forgets the remembered answer (tests that change the key in-process). */
export function forgetSealingKeyCheck(): void {
  sealingKeyState.forget();
}

async function compareWithDatabase(db: DbOrTx): Promise<SealingKeyState> {
  const problem = sealingKeyProblem();
  if (problem) return { usable: false, reason: problem };
  const ours = sealingKeyCheckValue();
  const differentKey = `${configuredSealingKey().name} is not the key the secrets in the database were sealed with (every instance must have the same key)`;
  let stored = await readKeyCheckValue(db, CHECK_NAME);
  if (stored === undefined) {
    const sealed = await readOldestSealedSecret(db);
    if (sealed !== undefined && !opens(sealed)) return { usable: false, reason: differentKey };
    // Two instances starting at once with different keys: the first insert wins, the other sees it below.
    await insertKeyCheckValue(db, CHECK_NAME, ours);
    stored = await readKeyCheckValue(db, CHECK_NAME);
  }
  const same = stored !== undefined && stored.length === ours.length && timingSafeEqual(Buffer.from(stored), Buffer.from(ours));
  return same ? { usable: true } : { usable: false, reason: differentKey };
}

function opens(sealed: string): boolean {
  try {
    openSecret(sealed);
    return true;
  } catch {
    return false;
  }
}

/**
 * For what seals a secret or keys a token by the sealing key: refuses (503) rather than make one
 * that other instances could not open or check.
 */
export async function requireSealingKey({ db }: VerbContext, what: string): Promise<void> {
  const state = await checkSealingKey(db);
  if (!state.usable) throw new ServiceError('service_unavailable', `${what} cannot be made on this instance: ${state.reason}.`);
}
