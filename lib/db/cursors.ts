import { z } from 'zod';

/** A row sequence number: a positive 64-bit integer, as text. */
function isSequence(value: string | undefined): boolean {
  return value !== undefined && /^\d{1,19}$/.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n;
}

/**
 * `<ISO time>|<sequence>`: the (createdAt, id) of the last row of the previous page, for tables
 * whose id is a sequence. Such rows are paged by time, not by id: rows written in batches by
 * several processes get their ids in the order the batches land, not the order of their times.
 */
export const timeSequenceCursorSchema = z
  .string()
  .max(200)
  .refine((value) => {
    const [time, sequence] = value.split('|');
    return !Number.isNaN(Date.parse(time)) && isSequence(sequence);
  }, 'a cursor from a previous page');

/** The Prisma `where` part that keeps the rows after a `timeSequenceCursorSchema` cursor, newest first. */
export function afterTimeSequenceCursor(cursor: string | undefined) {
  if (!cursor) return {};
  const [time, sequence] = cursor.split('|');
  const at = new Date(time);
  // The bound on the time alone is what lets a (…, created_at, id) index start at the cursor;
  // the OR then keeps the rows of the same millisecond with a smaller id.
  return { AND: [{ createdAt: { lte: at } }, { OR: [{ createdAt: { lt: at } }, { id: { lt: BigInt(sequence) } }] }] };
}

/** `<ISO time>|<uuid>`: the (createdAt, id) of the last row of the previous page. */
export const timeIdCursorSchema = z
  .string()
  .max(200)
  .refine((value) => {
    const [time, id] = value.split('|');
    return !Number.isNaN(Date.parse(time)) && z.uuid().safeParse(id).success;
  }, 'a cursor from a previous page');

/** The Prisma `where` part that keeps the rows after a `timeIdCursorSchema` cursor, newest first. */
export function afterTimeIdCursor(cursor: string | undefined) {
  if (!cursor) return {};
  const [time, id] = cursor.split('|');
  return { OR: [{ createdAt: { lt: new Date(time) } }, { createdAt: new Date(time), id: { lt: id } }] };
}

/** One page of rows read with `take: limit + 1`, and the cursor of the next page (null at the end). */
export function timeIdPage<T extends { createdAt: Date; id: string | bigint }>(rows: T[], limit: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit ? `${last.createdAt.toISOString()}|${last.id}` : null };
}
