import type { DbOrTx } from '../db/client';

/**
 * The receipt signing keys' store: the only place with SQL for them. One key is current
 * (`retired_at IS NULL`, enforced by a partial unique index); the quote insert re-checks that
 * the key it signed with still is (lib/quotes/store.ts), which makes remembering it safe.
 */

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

export function readCurrentSigningKey(db: DbOrTx): Promise<ReceiptSigningKeyRow | null> {
  return db.receiptSigningKey.findFirst({ where: { retiredAt: null } });
}

/** The first key, unless another process made one first (the partial unique index decides). */
export async function insertFirstSigningKey(db: DbOrTx, row: Omit<ReceiptSigningKeyRow, 'retiredAt'>): Promise<void> {
  await db.$executeRaw`INSERT INTO receipt_signing_keys (kid, public_key, private_key_sealed, created_at)
    VALUES (${row.kid}, ${row.publicKey}, ${row.privateKeySealed}, ${row.createdAt})
    ON CONFLICT ((true)) WHERE retired_at IS NULL DO NOTHING`;
}

/** Retires the current key and makes `row` current, in one statement (so one is always current). */
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
