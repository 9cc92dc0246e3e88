// `npm run settings:docs`: renders docs/operations.md's Configuration table from the settings
// (lib/settings/catalogue.ts). lib/settings/docs-table.test.ts fails while the table is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withSettingsTable } from '../lib/settings/docs-table';

const file = path.resolve(import.meta.dirname, '../docs/operations.md');
const before = readFileSync(file, 'utf8');
const after = withSettingsTable(before);
writeFileSync(file, after);
console.log(before === after ? 'docs/operations.md: the Configuration table was current' : 'docs/operations.md: Configuration table rendered');
