import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { ServiceError } from '../errors/service-error';
import { settings } from '../settings/settings';

/**
 * Where webhooks may go: one policy for creating or changing an endpoint (a clear 422) and for
 * every delivery (a refused attempt). Delivery also checks every address a name resolves to, at
 * connection time: names can change what they resolve to, so creation cannot decide for them.
 */

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

/**
 * What an address may receive: `public` always; `private` (loopback, private networks, unique
 * local, shared NAT space) only where the deployment allows private targets; `refused` nowhere
 * (link-local, where cloud metadata services answer; unspecified, multicast, broadcast; reserved
 * and translation ranges, which can embed any of those).
 */
export type AddressVerdict = 'public' | 'private' | 'refused';

const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  uniqueLocal: 'a unique local (private-network) address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  linkLocal: 'a link-local address, where cloud metadata services answer',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** The address's range (an IPv4-mapped IPv6 address is its IPv4 address), or null if it is not one. */
function classify(address: string): { range: string; mapped: string | null } | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const v4 = (parsed as ipaddr.IPv6).toIPv4Address();
    return { range: v4.range(), mapped: v4.toString() };
  }
  return { range: parsed.range(), mapped: null };
}

export function addressVerdict(address: string): AddressVerdict {
  const range = classify(address)?.range;
  if (range === 'unicast') return 'public';
  return range !== undefined && PRIVATE_RANGES.has(range) ? 'private' : 'refused';
}

/** Loopback, private, link-local and other non-public ranges never receive deliveries. */
export function isForbiddenAddress(address: string): boolean {
  return addressVerdict(address) !== 'public';
}

/** Refused even where private targets are allowed (development): see AddressVerdict. */
export function isAlwaysForbiddenAddress(address: string): boolean {
  return addressVerdict(address) === 'refused';
}

/** Whether this deployment may deliver to private targets (embedded development, tests). */
export function privateTargetsAllowed({ WEBHOOKS_ALLOW_PRIVATE_TARGETS, EMBEDDED_DATABASE } = settings()): boolean {
  return WEBHOOKS_ALLOW_PRIVATE_TARGETS || EMBEDDED_DATABASE;
}

/** Names of cloud metadata services: they answer on link-local addresses. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** What the URL's host is, as the policy sees it: its verdict and how to name it to a person. */
function hostVerdict(url: URL): { verdict: AddressVerdict; what: string } {
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (net.isIP(host)) {
    const { range, mapped } = classify(host)!;
    const words = RANGE_WORDS[range] ?? `a reserved address (${range})`;
    return { verdict: addressVerdict(host), what: mapped ? `${host} (the IPv4-mapped form of ${mapped}) is ${words}` : `${host} is ${words}` };
  }
  if (METADATA_NAMES.has(host)) return { verdict: 'refused', what: `${host} is a cloud metadata service` };
  // RFC 6761: localhost and every name under it are the loopback interface.
  if (host === 'localhost' || host.endsWith('.localhost')) return { verdict: 'private', what: `${host} is this machine (loopback)` };
  return { verdict: 'public', what: host };
}

export type TargetVerdict = {
  /** Why deliveries to the URL are refused on this deployment, or null. */
  problem: string | null;
  /** Set when the URL names a private target that this deployment allows (and another would refuse). */
  note: string | null;
};

/**
 * The policy for one endpoint URL (already a valid https URL, endpointUrlProblem): a host must
 * be written (`https:///x` has none: the parser would take `x` for it), and an address or a
 * name known to be one must be public, or private where `allowPrivate`.
 */
export function targetVerdict(value: string, allowPrivate: boolean): TargetVerdict {
  if (!/^https:\/\/[^/\\]/i.test(value)) return { problem: 'must name its host right after https://', note: null };
  const { verdict, what } = hostVerdict(new URL(value));
  if (verdict === 'refused') return { problem: `${what}: no deployment delivers to it`, note: null };
  if (verdict === 'public') return { problem: null, note: null };
  if (!allowPrivate) return { problem: `${what}: this deployment refuses private, loopback and local targets`, note: null };
  return {
    problem: null,
    note: `${what}: this deployment allows private targets (WEBHOOKS_ALLOW_PRIVATE_TARGETS=true or the embedded database), for receivers on your own machine or network; a deployment that does not would refuse this URL.`,
  };
}

/** Creating or changing an endpoint: a URL that delivery would refuse answers 422 `webhook_target_refused`. */
export function requireDeliverableTarget(url: string, allowPrivate = privateTargetsAllowed()): void {
  const { problem } = targetVerdict(url, allowPrivate);
  if (problem) {
    throw new ServiceError('webhook_target_refused', `Webhooks cannot be delivered to ${url}: ${problem}.`, { details: { fields: { url: [problem] } }, param: 'url' });
  }
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
