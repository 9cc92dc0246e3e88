import type { Principal } from '../../auth/principal';
import type { Db } from '../../db/client';
import { getReadReplica } from '../../db/read-replica';
import { formatLsn, parseLsn } from '../../db/read-your-writes';
import { settings } from '../../settings/settings';

/**
 * The portal's cookie carrying the primary's WAL position after the person's last write, so that
 * any process of any instance sends their reads to the primary until the replica has replayed it
 * (the memory of who wrote is per process). Not a secret: it only ever makes reads fresher.
 */
export const READ_AFTER_COOKIE = 'read-after';
/** Longer than any lag a replica should have; past it the replica serves the person again. */
const READ_AFTER_MAX_AGE_S = 60;

const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** Who a caller is for read-your-writes: an API key, or a person whatever session or token they use. */
function writerOf(principal: Principal): string | null {
  if (principal.kind === 'api_key') return `key:${principal.keyId}`;
  if (principal.kind === 'session') return `user:${principal.userId}`;
  return null;
}

/**
 * The handle a request's lag-tolerant reads go to (ctx.readDb): with a replica
 * (DATABASE_READ_URL), a GET or HEAD reads from it unless the caller's own writes have not
 * reached it yet; everything else, and every request without a replica, reads from `db`.
 */
export async function chooseReadDb(request: Request, principal: Principal, db: Db): Promise<Db> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return db;
  const replica = getReadReplica();
  if (!replica) return db;
  return replica.readerFor(writerOf(principal), readAfterCookie(request));
}

/**
 * After a request that may have written (not GET, HEAD or OPTIONS, and answered below 400), the
 * caller's next reads wait for that write (ReadReplica.noteWrite). A person on the portal's
 * cookie also gets the position as a cookie, for the processes that did not see the write.
 */
export async function rememberWrite(request: Request, principal: Principal, response: Response): Promise<void> {
  if (SAFE_METHODS.includes(request.method) || response.status >= 400) return;
  const who = writerOf(principal);
  const replica = who ? getReadReplica() : null;
  if (!who || !replica) return;
  const noted = replica.noteWrite(who);
  if (principal.kind !== 'session' || !principal.viaCookie) return;
  const lsn = await noted;
  if (lsn === null) return;
  // As next-auth decides for its own cookies: the portal's public origin is https.
  const secure = settings().NEXTAUTH_URL?.startsWith('https://') || request.url.startsWith('https://') ? '; Secure' : '';
  response.headers.append('set-cookie', `${READ_AFTER_COOKIE}=${formatLsn(lsn)}; Path=/v1; Max-Age=${READ_AFTER_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`);
}

function readAfterCookie(request: Request): bigint | null {
  const cookies = request.headers.get('cookie');
  if (!cookies) return null;
  for (const part of cookies.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === READ_AFTER_COOKIE) return parseLsn(value);
  }
  return null;
}
