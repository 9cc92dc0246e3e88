import { forgetSettings } from '../../lib/settings/settings';

/**
 * Sets (or, with undefined, removes) environment variables in this process and has the service's
 * settings read them again (lib/settings parses process.env once). Returns what to restore.
 */
export function setEnv(changes: Record<string, string | undefined>): Record<string, string | undefined> {
  const previous: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(changes)) {
    previous[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  forgetSettings();
  return previous;
}

/** Runs `fn` with these variables, then puts back what was there. */
export async function withEnv<T>(changes: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const previous = setEnv(changes);
  try {
    return await fn();
  } finally {
    setEnv(previous);
  }
}
