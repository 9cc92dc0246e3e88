import fc from 'fast-check';

/**
 * Raw JSON texts made from a valid body by one mutation each, the way an attacker or a careless
 * client would write them: keys named like Object.prototype members, deep nesting, lone
 * surrogates, NUL, numbers JavaScript cannot hold, wrong types, duplicate keys, unicode edge
 * cases, or not JSON at all. Texts, not values: JSON.stringify cannot write most of these.
 */
export type MutatedBody = { kind: string; text: string };

type Path = (string | number)[];

const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
];

const HUGE_NUMBERS = ['1e309', '-1e309', '9007199254740993', '1e-400', '-0', '123456789012345678901234567890', '0.1e1000000', '4.9e-324'];

const EDGE_STRINGS = [
  '\\u0000',
  'a\\u0000b',
  '\\ud800',
  '\\udfff',
  'x\\ud83d',
  '\\udc00\\ud800',
  '\\ufeff',
  '\\uffff',
  '\u202e\u0644\u0627', // right-to-left override and Arabic
  '\u0301\u0301\u0301', // lone combining marks
  '👩‍👩‍👧‍👦',
  '\\u2028\\u2029',
  ' ',
  '',
  '\\"\\\\/',
];

/** Every place in a value: the root, each property of an object and each element of an array. */
function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...path, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

function objectPathsOf(value: unknown): Path[] {
  return pathsOf(value).filter((p) => {
    const v = at(value, p);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
}

function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

/** A copy of `root` with the value at `path` replaced by raw JSON text. */
function withRaw(root: unknown, path: Path, raw: string): string {
  if (path.length === 0) return raw;
  const marker = `@@raw@@`;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), () => raw);
}

/** A copy of `root` with a raw `"key": value` member added to the object at `path`. */
function withRawMember(root: unknown, path: Path, rawKey: string, rawValue: string): string {
  const marker = '@@member@@';
  const copy = structuredClone(root);
  const target = at(copy, path) as Record<string, unknown>;
  target[marker] = 0;
  return JSON.stringify(copy).replace(`${JSON.stringify(marker)}:0`, () => `${rawKey}:${rawValue}`);
}

const rawJsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(...HUGE_NUMBERS),
  fc.constantFrom(...EDGE_STRINGS).map((s) => `"${s}"`),
);

function nesting(depth: number, inner: string, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

/** Mutations of `seed` (a valid body), with what each did. */
export function mutatedBodies(seed: unknown): fc.Arbitrary<MutatedBody> {
  const places = pathsOf(seed);
  const objects = objectPathsOf(seed);
  const place = fc.constantFrom(...places);
  const strings = places.filter((p) => typeof at(seed, p) === 'string');
  const members = objects.flatMap((p) => Object.keys(at(seed, p) as object).map((k) => [...p, k]));
  const mutations: fc.Arbitrary<MutatedBody>[] = [
    fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES), rawJsonValue).chain(([name, value]) =>
      fc.constantFrom(...(objects.length > 0 ? objects : [[]])).map((p) => ({
        kind: 'prototype-named key',
        text: objects.length > 0 ? withRawMember(seed, p, JSON.stringify(name), value) : `{${JSON.stringify(name)}:${value}}`,
      })),
    ),
    fc.tuple(place, fc.integer({ min: 28, max: 6000 }), fc.constantFrom<'array' | 'object'>('array', 'object'), fc.constantFrom('1', '"\\ud800"', '"\\u0000"')).map(
      ([p, depth, kind, inner]) => ({ kind: 'deep nesting', text: withRaw(seed, p, nesting(depth, inner, kind)) }),
    ),
    fc.tuple(place, fc.constantFrom(...HUGE_NUMBERS)).map(([p, n]) => ({ kind: 'huge number', text: withRaw(seed, p, n) })),
    fc.tuple(place, fc.jsonValue({ maxDepth: 2 })).map(([p, v]) => ({ kind: 'wrong type', text: withRaw(seed, p, JSON.stringify(v)) })),
    fc.tuple(place, fc.string({ unit: 'grapheme', maxLength: 300 })).map(([p, s]) => ({ kind: 'unicode string', text: withRaw(seed, p, JSON.stringify(s)) })),
    fc.tuple(place, fc.constantFrom(...EDGE_STRINGS), fc.string({ maxLength: 8 })).map(([p, edge, around]) => ({
      kind: 'edge string',
      text: withRaw(seed, p, `"${JSON.stringify(around).slice(1, -1)}${edge}${JSON.stringify(around).slice(1, -1)}"`),
    })),
    fc.string({ maxLength: 2000 }).map((s) => ({ kind: 'not JSON', text: s })),
    fc.nat({ max: 10_000 }).map((n) => {
      const text = JSON.stringify(seed);
      return { kind: 'truncated JSON', text: text.slice(0, n % Math.max(1, text.length)) };
    }),
    fc.jsonValue({ maxDepth: 4 }).map((v) => ({ kind: 'random JSON', text: JSON.stringify(v) })),
  ];
  if (strings.length > 0) {
    mutations.push(
      fc.tuple(fc.constantFrom(...strings), fc.constantFrom('\\u0000', '\\ud800', '\\udbff\\udbff', 'a\\u0000')).map(([p, bad]) => ({
        kind: 'NUL or lone surrogate in a string',
        text: withRaw(seed, p, `"${JSON.stringify(String(at(seed, p))).slice(1, -1)}${bad}"`),
      })),
      // Raw, not escaped: the body is then not JSON, and the request log keeps its text.
      fc.tuple(fc.constantFrom(...strings), fc.constantFrom('\u0000', 'x\u0000y', '\ud800', '\udc00x')).map(([p, bad]) => ({
        kind: 'raw NUL or lone surrogate in a string',
        text: withRaw(seed, p, `"${JSON.stringify(String(at(seed, p))).slice(1, -1)}${bad}"`),
      })),
    );
  }
  if (members.length > 0) {
    mutations.push(
      fc.tuple(fc.constantFrom(...members), rawJsonValue).map(([p, value]) => ({
        kind: 'duplicate key',
        text: withRawMember(seed, p.slice(0, -1), JSON.stringify(p[p.length - 1]), value),
      })),
      fc.tuple(fc.constantFrom(...members), fc.constantFrom('\\u0000', '\\ud800', '')).map(([p, bad]) => ({
        kind: 'bad key',
        text: withRawMember(seed, p.slice(0, -1), `"${String(p[p.length - 1])}${bad}"`, '1'),
      })),
    );
  }
  return fc.oneof(...mutations);
}

/** Mutations of a query string's values (NUL, huge numbers, unicode, repeats, junk encodings). */
export function mutatedQueries(names: string[]): fc.Arbitrary<MutatedBody> {
  const value = fc.oneof(
    fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%E0%A4%A', '%', '%%', '1e309', '-1', '99999999999999999999', '', '%FF%FE'),
    fc.string({ unit: 'grapheme', maxLength: 400 }).map(encodeURIComponent),
    fc.constantFrom(...PROTOTYPE_NAMES),
  );
  const name = fc.oneof(fc.constantFrom(...(names.length > 0 ? names : ['q'])), fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 20 }).map(encodeURIComponent));
  return fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 6 }).map((pairs) => ({
    kind: 'query',
    text: `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`,
  }));
}
