import { z } from 'zod';

/**
 * Keyset cursors `<ISO time>|<id>`: the (createdAt, id) of the last row of the previous page,
 * for lists newest first by time, ties by id. Tables whose id is a sequence are paged this way
 * too, not by id alone: rows written in batches by several processes get their ids in the
 * order the batches land, not the order of their times.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

function timeCursorSchema(isId: (id: string | undefined) => boolean) {
  return z
    .string()
    .max(200)
    .refine((value) => {
      const [time, id] = value.split('|');
      const at = Date.parse(time);
      // Years 1 to 9999: JavaScript reads times PostgreSQL refuses (e.g. 200000 BC), which would be a 500.
      return at >= EARLIEST && at <= LATEST && isId(id);
    }, 'a cursor from a previous page');
}

/** A row sequence number: a positive 64-bit integer, as text. */
function isSequence(value: string | undefined): boolean {
  return value !== undefined && /^\d{1,19}$/.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n;
}

/** `<ISO time>|<uuid>`. */
export const timeIdCursorSchema = timeCursorSchema((id) => z.uuid().safeParse(id).success);

/** `<ISO time>|<sequence>`. */
export const timeSequenceCursorSchema = timeCursorSchema(isSequence);

/** The Prisma `where` part that keeps the rows after a cursor, newest first (or oldest first: `asc`). */
function afterTimeCursor<Id>(cursor: string | undefined, parseId: (id: string) => Id, direction: 'asc' | 'desc' = 'desc') {
  if (!cursor) return {};
  const [time, id] = cursor.split('|');
  const at = new Date(time);
  // The bound on the time alone is what lets a (…, created_at, id) index start at the cursor;
  // the OR then keeps the rows of the same millisecond with a smaller (or larger) id.
  const beyond = direction === 'desc' ? 'lt' : 'gt';
  const upTo = direction === 'desc' ? 'lte' : 'gte';
  return { AND: [{ createdAt: { [upTo]: at } }, { OR: [{ createdAt: { [beyond]: at } }, { id: { [beyond]: parseId(id) } }] }] };
}

/** After a `timeIdCursorSchema` cursor. */
export function afterTimeIdCursor(cursor: string | undefined, direction: 'asc' | 'desc' = 'desc') {
  return afterTimeCursor(cursor, (id) => id, direction);
}


/** One page of rows read with `take: limit + 1`, and the cursor of the next page (null at the end). */
export function timeIdPage<T extends { createdAt: Date; id: string | bigint }>(rows: T[], limit: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit ? `${last.createdAt.toISOString()}|${last.id}` : null };
}
