import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** Spec 2.6: HTTPS only, no credentials, no fragment. Returns why a URL is refused, or null. */
export function endpointUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'must use https://';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash || value.includes('#')) return 'must not carry a fragment';
  if (!url.hostname) return 'must name a host';
  return null;
}

function rangeOf(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
}

/** Loopback, private, link-local and other non-public ranges never receive deliveries. */
export function isForbiddenAddress(address: string): boolean {
  return rangeOf(address) !== 'unicast';
}

/**
 * Refused even where private targets are allowed (development): link-local addresses hold
 * cloud metadata services, and unspecified, multicast or broadcast ones are never a receiver.
 */
export function isAlwaysForbiddenAddress(address: string): boolean {
  const range = rangeOf(address);
  return range === null || ['linkLocal', 'unspecified', 'multicast', 'broadcast'].includes(range);
}

/** Whether this deployment may deliver to private targets (embedded development, tests). */
export function privateTargetsAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WEBHOOKS_ALLOW_PRIVATE_TARGETS === 'true' || env.EMBEDDED_DATABASE === '1';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for https.request that resolves the host and refuses forbidden addresses at
 * connection time, after DNS: a name that rebinds to 127.0.0.1 is caught here too.
 */
export function guardedLookup(forbidden: (address: string) => boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => lookUp(hostname, options, callback, forbidden);
}

function lookUp(hostname: string, options: LookupOptions, callback: LookupCallback, isForbidden: (address: string) => boolean): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const forbidden = addresses.find((a) => isForbidden(a.address));
    if (forbidden) {
      const refusal = Object.assign(new Error(`refused: ${hostname} resolves to the non-public address ${forbidden.address}`), {
        code: 'EFORBIDDENTARGET',
      });
      return callback(refusal, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
