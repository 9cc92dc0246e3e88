import type { VerbContext } from '../context/verb-context';

export async function createWorkspace({ db }: VerbContext, input: { slug: string; name: string }) {
  return db.workspace.create({ data: input, select: { id: true, slug: true, name: true } });
}
