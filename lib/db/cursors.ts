import { z } from 'zod';

/** A page cursor that is a row sequence number: a positive 64-bit integer, as text. */
export const sequenceCursorSchema = z
  .string()
  // One check: zod runs a refinement even after the regex failed, and BigInt throws on non-digits.
  .refine((value) => /^\d{1,19}$/.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n, 'a cursor from a previous page');

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
export function timeIdPage<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit ? `${last.createdAt.toISOString()}|${last.id}` : null };
}
