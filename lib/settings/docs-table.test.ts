import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from './catalogue';
import { TABLE_MARK, settingsTable, withSettingsTable } from './docs-table';

const operations = readFileSync(path.resolve(import.meta.dirname, '../../docs/operations.md'), 'utf8');

describe("docs/operations.md's Configuration table", () => {
  it('is the one rendered from the settings (run `npm run settings:docs` after changing one)', () => {
    const section = operations.indexOf('\n## Configuration\n');
    expect(section).toBeGreaterThan(0);
    expect(operations.indexOf(`\n${TABLE_MARK}\n`)).toBeGreaterThan(section);
    expect(withSettingsTable(operations)).toBe(operations);
  });

  it('has one row per setting, with its default and meaning', () => {
    const rows = settingsTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `(\w+)` \|/.exec(row)?.[1])).toEqual(Object.keys(SETTINGS));
    for (const [name, { shown, meaning }] of Object.entries(SETTINGS)) {
      expect(shown.trim(), name).not.toBe('');
      expect(meaning.trim(), name).not.toBe('');
    }
  });
});
