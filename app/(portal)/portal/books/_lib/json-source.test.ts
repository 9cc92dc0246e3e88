import { describe, expect, it } from 'vitest';
import { demoBookArtifact } from '@/lib/books/demo-book';
import { lineAndColumnAt, locateJsonPath, readJson, type JsonNode } from './json-source';

const demoText = JSON.stringify(demoBookArtifact, null, 2);

function rootOf(text: string): JsonNode {
  const result = readJson(text);
  if (!result.ok) throw new Error(`not JSON: ${result.error.message}`);
  return result.root;
}

describe('readJson', () => {
  it('parses what JSON.parse parses, with the same value', () => {
    for (const text of [demoText, '[]', '{}', ' 1.5e-3 ', '"a\\u00e9\\n"', '[true,false,null,{"a":[-0]}]']) {
      const result = readJson(text);
      expect(result).toMatchObject({ ok: true, value: JSON.parse(text) });
    }
  });

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', 2, 9, 'expected a comma or a closing }'],
    ['[1 2]', 1, 3, 'expected a comma or a closing ]'],
    ['{\n  "a": 1,\n}', 3, 1, 'remove the comma before }'],
    ['[1, 2,]', 1, 7, 'remove the comma before ]'],
    ['{ a: 1 }', 1, 3, 'expected a field name in double quotes'],
    ['{ "a" 1 }', 1, 7, 'expected a colon after "a"'],
    ['{ "a": "USD }', 1, 8, 'a text value is missing its closing quote'],
    ['{ "a": tru }', 1, 8, 'expected a value'],
    ['{ "a": 1 } x', 1, 12, 'unexpected text after the end'],
    ['{ "a": ', 1, 8, 'the text ends where a value was expected'],
    ['{ "a": "\\x" }', 1, 9, 'a backslash in a text value'],
  ])('reports %j at line %i, column %i', (text, line, column, message) => {
    const result = readJson(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ line, column });
    expect(result.error.message).toContain(message);
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe('locateJsonPath', () => {
  it('selects a member from its key to the end of its value', () => {
    const location = locateJsonPath(rootOf(demoText), 'currency');
    expect(demoText.slice(location.start, location.end)).toBe('"currency": "USD"');
    expect(location.exact).toBe(true);
  });

  it('walks arrays by index and objects by key', () => {
    const path = 'rules.4.adjustment.basisPoints';
    expect(demoBookArtifact.rules[4].id).toBe('difficult_access');
    const location = locateJsonPath(rootOf(demoText), path);
    expect(demoText.slice(location.start, location.end)).toBe('"basisPoints": 1500');
    expect(lineAndColumnAt(demoText, location.start).line).toBe(demoText.slice(0, location.start).split('\n').length);
  });

  it('selects a whole array element', () => {
    const location = locateJsonPath(rootOf(demoText), 'offerings.1');
    const element = JSON.parse(demoText.slice(location.start, location.end));
    expect(element.id).toBe('gutter_cleaning');
  });

  it('falls back to the nearest enclosing value when a field is missing', () => {
    const text = '{ "rules": [ { "id": "r", "phase": "discount" } ] }';
    const location = locateJsonPath(rootOf(text), 'rules.0.reduction');
    expect(text.slice(location.start, location.end)).toBe('{ "id": "r", "phase": "discount" }');
    expect(location.exact).toBe(false);
  });

  it('finds keys that need escapes and the whole document for an empty path', () => {
    const text = '{ "a\\"b": { "c": 1 } }';
    const root = rootOf(text);
    expect(text.slice(locateJsonPath(root, 'a"b.c').start, locateJsonPath(root, 'a"b.c').end)).toBe('"c": 1');
    expect(locateJsonPath(root, '')).toEqual({ start: 0, end: text.length, exact: true });
  });
});

describe('lineAndColumnAt', () => {
  it('counts from 1', () => {
    expect(lineAndColumnAt('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumnAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
