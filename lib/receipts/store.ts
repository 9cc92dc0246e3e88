import type { DbOrTx } from '../db/client';

/**
 * The receipt signing keys' store: the only place with SQL for them. A key signs from its
 * `created_at` until its `retired_at`: the newest key has no `retired_at` (a partial unique
 * index keeps it to one), and a rotation announced ahead gives the new key a `created_at` in the
 * future and the current one that moment as its `retired_at`, so the key set publishes the next
 * key before it signs. The quote inserts re-check that the key they signed with signs at their
 * instant (signsAt), which makes remembering it safe.
 */

/**
 * SQL for the quote inserts: key `s` still signs at instant `at` (not retired by then). No lower
 * bound: the signer never takes an announced key before its `created_at` (readCurrentSigningKey),
 * and the first key may be made a few milliseconds after the requests that raced to make it.
 */
export const signsAt = (s: string, at: string) => `(${s}.retired_at IS NULL OR ${s}.retired_at > ${at})`;

export type ReceiptSigningKeyRow = {
  kid: string;
  publicKey: string;
  privateKeySealed: string;
  createdAt: Date;
  retiredAt: Date | null;
};

const publicFields = { kid: true, publicKey: true, createdAt: true, retiredAt: true } as const;

/** Every key that ever signed, oldest first (the published key set). */
export function readSigningKeys(db: DbOrTx): Promise<Omit<ReceiptSigningKeyRow, 'privateKeySealed'>[]> {
  return db.receiptSigningKey.findMany({ select: publicFields, orderBy: [{ createdAt: 'asc' }, { kid: 'asc' }] });
}

/**
 * The key that signs at `now`; before any key's `created_at` (requests that began while a
 * concurrent one made the first key), the first key.
 */
export async function readCurrentSigningKey(db: DbOrTx, now: Date): Promise<ReceiptSigningKeyRow | null> {
  const current = await db.receiptSigningKey.findFirst({
    where: { createdAt: { lte: now }, OR: [{ retiredAt: null }, { retiredAt: { gt: now } }] },
    orderBy: { createdAt: 'desc' },
  });
  if (current || (await db.receiptSigningKey.count({ where: { createdAt: { lte: now } } })) > 0) return current;
  return db.receiptSigningKey.findFirst({ orderBy: { createdAt: 'asc' } });
}

/** A key announced to start signing after `now`, if a rotation is under way. */
export function readAnnouncedSigningKey(db: DbOrTx, now: Date): Promise<Pick<ReceiptSigningKeyRow, 'kid' | 'createdAt'> | null> {
  return db.receiptSigningKey.findFirst({ where: { createdAt: { gt: now }, retiredAt: null }, select: { kid: true, createdAt: true } });
}

/** The first key, unless another process made one first (the partial unique index decides). */
export async function insertFirstSigningKey(db: DbOrTx, row: Omit<ReceiptSigningKeyRow, 'retiredAt'>): Promise<void> {
  await db.$executeRaw`INSERT INTO receipt_signing_keys (kid, public_key, private_key_sealed, created_at)
    VALUES (${row.kid}, ${row.publicKey}, ${row.privateKeySealed}, ${row.createdAt})
    ON CONFLICT ((true)) WHERE retired_at IS NULL DO NOTHING`;
}

/**
 * Retires the newest key at `row.createdAt` and adds `row`, which signs from then on, in one
 * statement (so a key always signs). The caller has checked no rotation is already announced.
 */
export async function replaceCurrentSigningKey(db: DbOrTx, row: Omit<ReceiptSigningKeyRow, 'retiredAt'>): Promise<string | null> {
  const [retired] = await db.$queryRaw<{ kid: string }[]>`WITH retired AS (
      UPDATE receipt_signing_keys SET retired_at = ${row.createdAt} WHERE retired_at IS NULL RETURNING kid
    ), inserted AS (
      INSERT INTO receipt_signing_keys (kid, public_key, private_key_sealed, created_at)
      SELECT ${row.kid}, ${row.publicKey}, ${row.privateKeySealed}, ${row.createdAt}
      FROM (SELECT 1) one LEFT JOIN retired ON true LIMIT 1
    )
    SELECT kid FROM retired`;
  return retired?.kid ?? null;
}
