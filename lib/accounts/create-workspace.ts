import type { DbOrTx } from '../db/client';

export async function createWorkspace(db: DbOrTx, input: { slug: string; name: string }) {
  return db.workspace.create({ data: input, select: { id: true, slug: true, name: true } });
}
