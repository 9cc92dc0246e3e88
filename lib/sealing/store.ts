import type { DbOrTx } from '../db/client';
import { sqlRows } from '../db/sql';

/** The sealing key's store: its check value (`key_checks`), and a secret sealed with it to try. */

export async function readKeyCheckValue(db: DbOrTx, name: string): Promise<string | undefined> {
  const [stored] = await sqlRows<{ check_value: string }>(db, 'SELECT check_value FROM key_checks WHERE name = $1', [name]);
  return stored?.check_value;
}

/** The first check value recorded under `name` wins; a later one is not written. */
export async function insertKeyCheckValue(db: DbOrTx, name: string, value: string): Promise<void> {
  await sqlRows(db, 'INSERT INTO key_checks (name, check_value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
}

/** The oldest sealed secret there is (a webhook endpoint's), if any: what a database from before the check was sealed with. */
export async function readOldestSealedSecret(db: DbOrTx): Promise<string | undefined> {
  const [sealed] = await sqlRows<{ secret_ciphertext: string }>(db, 'SELECT secret_ciphertext FROM webhook_endpoints ORDER BY created_at LIMIT 1', []);
  return sealed?.secret_ciphertext;
}
