/**
 * The caller's address: the first hop a proxy names (`x-forwarded-for`, which the server's edge
 * sets from the socket when no proxy did), if any. Behind a proxy that is what the proxy saw; a
 * client reaching the service directly could name another address, so nothing that guards money
 * or data trusts it alone (docs/operations.md).
 */
export function clientAddress(request: Request): string | null {
  const forwarded = request.headers.get('x-forwarded-for');
  return forwarded ? forwarded.split(',')[0].trim().slice(0, 100) || null : null;
}
