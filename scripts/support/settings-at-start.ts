// Imported first by `npm start` and `npm run dev`, so that it runs before any module that reads a
// setting while it loads (the logger): a malformed or misspelt variable stops the start here, each
// named (lib/settings), before the database or the build.
import { settingsOrExit } from '../../lib/settings/settings-or-exit';

/** The settings the start runs with, checked. */
export const configured = settingsOrExit();
