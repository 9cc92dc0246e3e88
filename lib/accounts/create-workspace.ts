import type { VerbContext } from '../context/verb-context';
import { insertWorkspace } from './store';

export async function createWorkspace({ db }: VerbContext, input: { slug: string; name: string }) {
  return insertWorkspace(db, input);
}
