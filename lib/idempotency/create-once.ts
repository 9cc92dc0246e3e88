import type { ServiceError } from '../errors/service-error';

/**
 * The idempotent create, for writes whose row holds its own idempotency key (quotes, account
 * quotes): what the key already names is replayed (the same request) or refused (another
 * request); otherwise the row is created, and a create that loses the race for the key to a
 * concurrent request (its insert found the key taken) answers as that request's replay. So 50
 * concurrent requests with one key create one row, and all of them get its answer.
 */
export async function createOnce<Stored, Answer>(steps: {
  /** The canonical request's digest: a stored row with another one was made by another request. */
  fingerprint: string;
  /** The row the key names, if any (null: nothing stored, or no key was given). */
  find: () => Promise<Stored | null>;
  fingerprintOf: (stored: Stored) => string;
  /** Creates the row, or answers `key_taken` when the key turned out to be used already. */
  create: () => Promise<{ created: Answer } | 'key_taken'>;
  /** The answer a stored row replays as. */
  replay: (stored: Stored) => Promise<Answer> | Answer;
  /** The refusal of a key used with another request (409 `idempotency_conflict`). */
  conflict: (stored: Stored) => ServiceError;
}): Promise<{ answer: Answer; replayed: boolean }> {
  const replayed = async (stored: Stored) => {
    if (steps.fingerprintOf(stored) !== steps.fingerprint) throw steps.conflict(stored);
    return { answer: await steps.replay(stored), replayed: true };
  };
  const existing = await steps.find();
  if (existing) return replayed(existing);
  const made = await steps.create();
  if (made !== 'key_taken') return { answer: made.created, replayed: false };
  const winner = await steps.find();
  if (!winner) throw new Error('idempotency key taken, but no stored row under it');
  return replayed(winner);
}
