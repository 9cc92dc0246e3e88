import { FOREIGN_NAMES, FOREIGN_PATTERNS, OWNED_NAMES, SETTINGS } from './catalogue';

/**
 * Variables that look like one of the service's settings but are not one: a name under a prefix
 * only the service uses (DATABASE_POOL=20), or a near miss of a setting's name (LOG_LEVL,
 * SEALNG_KEY, database_url). Every other variable (PATH, HOME, a library's own, Kubernetes' service
 * links) is not ours to judge.
 */
export function unknownSettings(env: Record<string, string | undefined>): { name: string; suggestion: string | null }[] {
  const known = Object.keys(SETTINGS);
  const found: { name: string; suggestion: string | null }[] = [];
  for (const name of Object.keys(env)) {
    if (name in SETTINGS || FOREIGN_NAMES.has(name) || FOREIGN_PATTERNS.some((foreign) => foreign.test(name))) continue;
    const nearest = nearestName(name, known);
    if (nearest || OWNED_NAMES.some((owned) => owned.test(name))) found.push({ name, suggestion: nearest });
  }
  return found;
}

/**
 * The known name `name` is a slip of: same first letter, one edit away (two for names over 8
 * letters), case aside. IDP_ISSUER is not a slip of OIDC_ISSUER, nor HOME of HOST.
 */
function nearestName(name: string, known: string[]): string | null {
  const upper = name.toUpperCase();
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    if (candidate[0] !== upper[0]) continue;
    const distance = editDistance(upper, candidate);
    const allowed = candidate.length <= 8 ? 1 : 2;
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name ?? null;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
