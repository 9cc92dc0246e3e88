/**
 * RFC 8785 (JCS) canonical JSON, as the `canonicalize` package the service signs with makes it:
 * keys sorted by UTF-16 code units, numbers as ECMAScript prints them, no whitespace. Here rather
 * than a dependency because that package is ESM-only, which `require('@quote-pricing/sdk')` cannot
 * load; test/unit/sdk-canonical-json.test.ts holds the two equal.
 */
export function canonicalJson(value: unknown, seen = new Set<object>()): string {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`${value} is not allowed`);
  if (typeof value === 'string' && /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) throw new Error('Lone surrogate is not allowed');
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (seen.has(value)) throw new Error('Circular reference detected');
  seen.add(value);
  let result: string;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') result = canonicalJson((value as { toJSON(): unknown }).toJSON(), seen);
  else if (Array.isArray(value)) result = `[${value.map((item) => canonicalJson(item === undefined || typeof item === 'symbol' ? null : item, seen)).join(',')}]`;
  else {
    const record = value as Record<string, unknown>;
    const fields = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined && typeof record[key] !== 'symbol')
      .map((key) => `${canonicalJson(key)}:${canonicalJson(record[key], seen)}`);
    result = `{${fields.join(',')}}`;
  }
  seen.delete(value);
  return result;
}
