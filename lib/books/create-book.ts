import type { VerbContext } from '../context/verb-context';

export type CreateBookInput = { projectId: string; key: string; name: string; makePrimary?: boolean };

/** Creates an empty book in a project; optionally the project's primary book. */
export async function createBook({ db }: VerbContext, input: CreateBookInput) {
  const book = await db.book.create({
    data: { projectId: input.projectId, key: input.key, name: input.name },
    select: { id: true, projectId: true, key: true, name: true, createdAt: true },
  });
  if (input.makePrimary) {
    await db.project.update({ where: { id: input.projectId }, data: { primaryBookId: book.id } });
  }
  return book;
}
