// Imported first by `npm start` and `npm run dev`, so that it runs before any module that reads a
// setting while it loads (the logger): a malformed or misspelt variable stops the start here, each
// named (lib/settings), with no stack trace to read past.
import { SettingsError, checkSettingsAtStart, type Settings } from '../../lib/settings/settings';

function settingsAtStart(): Settings {
  try {
    return checkSettingsAtStart();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** The settings the start runs with, checked. */
export const configured = settingsAtStart();
