/**
 * What a JSON request body may hold beyond being JSON: the rules every route shares, checked once
 * in the body reader so that no route, store or engine meets such input.
 * - nesting at most MAX_JSON_DEPTH levels (deeper input would only exhaust a recursive consumer);
 * - no U+0000 in any string or key (PostgreSQL text and jsonb cannot hold it): refused, never stripped,
 *   so that what is stored is what was sent;
 * - no unpaired surrogate (\ud800): not text, and canonical JSON (fingerprints, hashes) breaks on it;
 * - no key named `__proto__`: assigning it changes an object's prototype instead of adding a field.
 */
export const MAX_JSON_DEPTH = 32;

export type JsonViolation = { field: string; message: string };

/**
 * The first rule the value breaks, with the dotted path of the field at fault; null when none.
 * Iterative, so any depth is safe to inspect.
 */
export function jsonViolation(value: unknown, root: string): JsonViolation | null {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop()!;
    const field = path || root;
    if (typeof current === 'string') {
      const problem = stringProblem(current);
      if (problem) return { field, message: problem };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { field, message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], depth: depth + 1, path: join(path, String(i)) });
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const child = join(path, key);
      if (key === '__proto__') return { field: child, message: 'is not an allowed field name' };
      const problem = stringProblem(key);
      if (problem) return { field: child, message: `name ${problem}` };
      stack.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1, path: child });
    }
  }
  return null;
}

/** What a field, a parameter or a body is told when its bytes are not UTF-8 (they would read as U+FFFD). */
export const NOT_UTF8 = 'must be UTF-8 text: some of its bytes are not';

function stringProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (!text.isWellFormed()) return 'must not contain unpaired surrogates';
  return null;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
