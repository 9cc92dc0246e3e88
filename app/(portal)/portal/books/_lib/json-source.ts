// Reads JSON text the way an editor needs it: where each value sits in the text, and where
// (line and column) and why the text stops being JSON. JSON.parse says neither reliably.

/** A value's place in the text, [start, end); objects' members by key, arrays' elements by index. */
/** A JSON object (not an array, not null): what a book's draft and its parts are. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export type JsonNode = {
  start: number;
  end: number;
  members: Map<string, { keyStart: number; node: JsonNode }>;
};

export type JsonSyntaxError = { offset: number; line: number; column: number; message: string };

export type ReadJsonResult = { ok: true; value: unknown; root: JsonNode } | { ok: false; error: JsonSyntaxError };

/** The selection to show for a place in the document; `exact` is false when only an enclosing part exists. */
export type JsonLocation = { start: number; end: number; exact: boolean };

class SyntaxProblem extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPABLE = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

function scan(text: string): JsonNode {
  let pos = 0;
  const skipSpace = () => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos])) pos++;
  };
  const expect = (char: string, message: string) => {
    skipSpace();
    if (text[pos] !== char) throw new SyntaxProblem(pos, message);
    pos++;
  };
  const leaf = (start: number): JsonNode => ({ start, end: pos, members: new Map() });

  const string = (): string => {
    const start = pos;
    pos++; // the opening quote
    while (pos < text.length) {
      const char = text[pos];
      if (char === '"') {
        pos++;
        return JSON.parse(text.slice(start, pos)) as string;
      }
      if (char === '\\') {
        const next = text[pos + 1];
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) pos += 6;
        else if (next !== undefined && ESCAPABLE.has(next)) pos += 2;
        else throw new SyntaxProblem(pos, 'a backslash in a text value must start an escape such as \\" or \\n');
      } else if (char === '\n') {
        throw new SyntaxProblem(start, 'a text value is missing its closing quote');
      } else if (char < ' ') {
        throw new SyntaxProblem(pos, 'a text value contains a control character');
      } else {
        pos++;
      }
    }
    throw new SyntaxProblem(start, 'a text value is missing its closing quote');
  };

  const value = (): JsonNode => {
    skipSpace();
    const start = pos;
    const char = text[pos];
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '"') {
      string();
      return leaf(start);
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, pos)) {
        pos += literal.length;
        return leaf(start);
      }
    }
    NUMBER.lastIndex = pos;
    const number = NUMBER.exec(text);
    if (number) {
      pos += number[0].length;
      return leaf(start);
    }
    if (char === undefined) throw new SyntaxProblem(pos, 'the text ends where a value was expected');
    throw new SyntaxProblem(pos, 'expected a value: text in double quotes, a number, true, false, null, { or [');
  };

  /**
   * An object or an array from its opening bracket: members separated by commas up to `close`,
   * each read by `member` (which adds it to `members`; `index` counts them from 0).
   */
  const container = (close: '}' | ']', member: (members: JsonNode['members'], index: number) => void): JsonNode => {
    const start = pos;
    const members: JsonNode['members'] = new Map();
    pos++; // { or [
    skipSpace();
    if (text[pos] === close) {
      pos++;
      return { start, end: pos, members };
    }
    for (let index = 0; ; index++) {
      skipSpace();
      if (text[pos] === close) throw new SyntaxProblem(pos, `remove the comma before ${close}`);
      member(members, index);
      // A missing comma is missing right after the value, not where the next text starts.
      const afterValue = pos;
      skipSpace();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === close) {
        pos++;
        return { start, end: pos, members };
      }
      throw new SyntaxProblem(afterValue, `expected a comma or a closing ${close}`);
    }
  };

  const object = (): JsonNode =>
    container('}', (members) => {
      if (text[pos] !== '"') throw new SyntaxProblem(pos, 'expected a field name in double quotes');
      const keyStart = pos;
      const key = string();
      expect(':', `expected a colon after "${key}"`);
      members.set(key, { keyStart, node: value() });
    });

  const array = (): JsonNode =>
    container(']', (members, index) => {
      const node = value();
      members.set(String(index), { keyStart: node.start, node });
    });

  const root = value();
  skipSpace();
  if (pos < text.length) throw new SyntaxProblem(pos, 'unexpected text after the end of the document');
  return root;
}

/** 1-based line and column of an offset. */
export function lineAndColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** Parses JSON text; on a mistake, says where it is (line, column) and what was expected. */
export function readJson(text: string): ReadJsonResult {
  let value: unknown;
  try {
    // The browser's parser first: it is many times faster, and places are needed only to show one.
    value = JSON.parse(text);
  } catch {
    return explainMistake(text);
  }
  let root: JsonNode | undefined;
  return {
    ok: true,
    value,
    get root() {
      return (root ??= scanOrWhole(text));
    },
  };
}

function scanOrWhole(text: string): JsonNode {
  try {
    return scan(text);
  } catch {
    return { start: 0, end: text.length, members: new Map() };
  }
}

function explainMistake(text: string): ReadJsonResult {
  try {
    scan(text);
    return { ok: false, error: { offset: 0, line: 1, column: 1, message: 'this is not valid JSON' } };
  } catch (error) {
    const offset = error instanceof SyntaxProblem ? error.offset : 0;
    const message = error instanceof SyntaxProblem ? error.message : 'this is not valid JSON';
    return { ok: false, error: { offset, ...lineAndColumnAt(text, offset), message } };
  }
}

/**
 * Where a dotted path (`rules.3.adjustment.basisPoints`, as validation issues name fields)
 * is in the text: the member from its key to the end of its value. A path into a field that
 * is not there (a missing field) gives the nearest enclosing value, marked not exact.
 */
export function locateJsonPath(root: JsonNode, path: string): JsonLocation {
  let node = root;
  let location: JsonLocation = { start: root.start, end: root.end, exact: true };
  for (const segment of path === '' ? [] : path.split('.')) {
    const member = node.members.get(segment);
    if (!member) return { ...location, exact: false };
    node = member.node;
    location = { start: member.keyStart, end: member.node.end, exact: true };
  }
  return location;
}
