import { SETTINGS } from './catalogue';

/** The line above docs/operations.md's Configuration table: the table below it is rendered from lib/settings. */
export const TABLE_MARK = '<!-- Rendered from lib/settings/catalogue.ts by `npm run settings:docs`: change a setting there, not here. -->';

/** The Configuration table: one row per setting, in the catalogue's order. */
export function settingsTable(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = Object.entries(SETTINGS).map(([name, { shown, meaning }]) => `| \`${name}\` | ${cell(shown)} | ${cell(meaning)} |`);
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** `markdown` with the table under TABLE_MARK replaced by the current one (the table ends at the first line that is not a row). */
export function withSettingsTable(markdown: string): string {
  const lines = markdown.split('\n');
  const at = lines.indexOf(TABLE_MARK);
  if (at < 0) throw new Error(`the document has no line ${TABLE_MARK}`);
  let end = at + 1;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  return [...lines.slice(0, at + 1), settingsTable(), ...lines.slice(end)].join('\n');
}
