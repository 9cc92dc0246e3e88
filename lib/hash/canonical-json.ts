import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical JSON of a JSON value: what receipts are signed over and what
 * fingerprints hash. The `canonicalize` package is the reference; this is the same text made
 * ~3x faster for the values we write (plain objects, arrays, strings, finite numbers): keys
 * sorted by UTF-16 code units into a fresh object, then JSON.stringify, whose strings and
 * numbers are exactly RFC 8785's; ~10x when every object's keys are already in order (receipts:
 * the engine and the view write them so), where JSON.stringify of the value itself is the answer. Where that shortcut does not hold, the package answers: an
 * object key that is an array index (JavaScript orders those numerically, before other keys) or
 * `__proto__`, a value with toJSON (a Date), or a string with a lone surrogate (the package refuses it).
 * A property test checks both agree on arbitrary JSON.
 */
export function canonicalJson(value: unknown): string {
  // Values written with their keys already in order (receipts are) need no copy at all.
  if (inCanonicalOrder(value)) return JSON.stringify(value);
  const sorted = sortedOrNull(value);
  return sorted === FALLBACK ? (canonicalize(value) ?? '') : JSON.stringify(sorted);
}

/** Whether JSON.stringify of the value is already its canonical JSON: every object's keys in order. */
export function inCanonicalOrder(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value !== 'object') return value === null || typeof value === 'boolean';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!inCanonicalOrder(value[i])) return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  let previous: string | null = null;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    const inner = (value as Record<string, unknown>)[key];
    if ((previous !== null && !(previous < key)) || isSpecialKey(key) || !inCanonicalOrder(inner)) return false;
    previous = key;
  }
  return true;
}

const FALLBACK = Symbol('fallback');
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** Keys JavaScript would not keep in insertion order, or that would set the prototype. */
function isSpecialKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return (first >= 48 && first <= 57 && ARRAY_INDEX.test(key)) || key === '__proto__' || !key.isWellFormed();
}

function sortedOrNull(value: unknown): unknown {
  if (typeof value === 'string') return value.isWellFormed() ? value : FALLBACK;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = sortedOrNull(value[i]);
      if (item === FALLBACK) return FALLBACK;
      out[i] = item;
    }
    return out;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return FALLBACK;
  const keys = Object.keys(value).sort();
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue;
    if (isSpecialKey(key)) return FALLBACK;
    const sorted = sortedOrNull(inner);
    if (sorted === FALLBACK) return FALLBACK;
    out[key] = sorted;
  }
  return out;
}
