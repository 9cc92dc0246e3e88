import { SettingsError, checkSettingsAtStart, type Settings } from './settings';

/**
 * The settings a start runs with, checked (checkSettingsAtStart); a malformed or misspelt
 * variable ends the process with one line per problem and no stack trace to read past. Next.js
 * only logs an error thrown by register() and serves on, so instrumentation.ts calls this.
 */
export function settingsOrExit(): Settings {
  try {
    return checkSettingsAtStart();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
