import type { VerbContext } from '../context/verb-context';
import { insertBook, setPrimaryBook } from './store';

export type CreateBookInput = { projectId: string; key: string; name: string; makePrimary?: boolean };

/** Creates an empty book in a project; optionally the project's primary book. */
export async function createBook({ db }: VerbContext, input: CreateBookInput) {
  const book = await insertBook(db, input);
  if (input.makePrimary) await setPrimaryBook(db, input.projectId, book.id);
  return book;
}
