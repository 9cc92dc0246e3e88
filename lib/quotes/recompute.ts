import { createHash } from 'node:crypto';
import { canonicalJson } from '../hash/canonical-json';
import type { CompiledBook, QuoteInputs } from '../pricing';
import { priceQuote, pricedFields, type PricedFields } from './quote-outcome';

/**
 * Recomputing a stored quote: its stored inputs priced again against its pinned book version,
 * compared with what its receipt says. Pure: the verification route and the audit CLI share it.
 */

export type FirstDifference = {
  /** Where the two part: `computation.derivation[3]`, `computation.totalMinor`, `outcome`, … */
  path: string;
  /** The derivation step's sequence, when they part in the derivation. */
  sequence: number | null;
  stored: unknown;
  recomputed: unknown;
};

export type Recomputation = {
  identical: boolean;
  /** sha256 (hex) of the canonical JSON of each side's priced fields. */
  storedDigest: string;
  recomputedDigest: string;
  firstDifference: FirstDifference | null;
};

const digest = (canonical: string) => createHash('sha256').update(canonical, 'utf8').digest('hex');
const canonical = (value: unknown) => canonicalJson(value ?? null);

/** The priced fields of a stored receipt (the rest — ids, latency, time — are not recomputable). */
export function storedPricedFields(receipt: PricedFields): PricedFields {
  return { outcome: receipt.outcome, computation: receipt.computation, missingInputs: receipt.missingInputs, failure: receipt.failure };
}

export function recompute(book: CompiledBook | null, inputs: QuoteInputs, stored: PricedFields): Recomputation {
  const recomputed = pricedFields(priceQuote(book, inputs));
  const storedText = canonical(storedPricedFields(stored));
  const recomputedText = canonical(recomputed);
  const identical = storedText === recomputedText;
  return {
    identical,
    storedDigest: digest(storedText),
    recomputedDigest: identical ? digest(storedText) : digest(recomputedText),
    firstDifference: identical ? null : firstDifference(storedPricedFields(stored), recomputed),
  };
}

/**
 * The first place two priced results part: the derivation first (step by step, in order), as a
 * person reads a waterfall; then any other field, in the receipt's order.
 */
export function firstDifference(stored: PricedFields, recomputed: PricedFields): FirstDifference {
  const a = stored.computation?.derivation ?? [];
  const b = recomputed.computation?.derivation ?? [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (canonical(a[i] ?? null) !== canonical(b[i] ?? null)) {
      return { path: `computation.derivation[${i}]`, sequence: (a[i] ?? b[i])!.sequence, stored: a[i] ?? null, recomputed: b[i] ?? null };
    }
  }
  const found = firstDifferentPath(stored, recomputed, '');
  return { path: found?.path ?? '', sequence: null, stored: found?.a ?? null, recomputed: found?.b ?? null };
}

function firstDifferentPath(a: unknown, b: unknown, path: string): { path: string; a: unknown; b: unknown } | null {
  if (canonical(a ?? null) === canonical(b ?? null)) return null;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const found = firstDifferentPath(a[i], b[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (isObject(a) && isObject(b) && !Array.isArray(a) && !Array.isArray(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
      const found = firstDifferentPath(a[key], b[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return { path, a: a ?? null, b: b ?? null };
}

/**
 * Whether recomputing gives the receipt's priced fields, without digests (the audit's hot path):
 * the JSON values compared in place, which is what comparing their canonical texts means.
 */
export function recomputesIdentically(book: CompiledBook | null, inputs: QuoteInputs, stored: PricedFields): boolean {
  return sameJson(storedPricedFields(stored), pricedFields(priceQuote(book, inputs)));
}

/**
 * Equal as JSON: same keys (undefined ones do not count) and equal values, whatever the key
 * order or the prototype (the engine's derivation entries are class instances, stored ones are
 * plain objects; dequal would call those different).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key) || left[key] === undefined) continue;
    count++;
    if (!sameJson(left[key], right[key])) return false;
  }
  for (const key in right) if (Object.hasOwn(right, key) && right[key] !== undefined) count--;
  return count === 0;
}
