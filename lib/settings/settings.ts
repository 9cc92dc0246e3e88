import { SETTINGS, type Settings } from './catalogue';
import { unknownSettings } from './unknown-settings';

export type { SettingName, Settings } from './catalogue';

type Env = Record<string, string | undefined>;

/** A setting that cannot be used, named: `problems` lists one line per variable. */
export class SettingsError extends Error {
  constructor(readonly problems: { name: string; message: string }[]) {
    super(`The service's settings are not valid (docs/operations.md, Configuration):\n${problems.map((p) => `  ${p.name}: ${p.message}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

/** Each setting parsed from `env`, with its problems (each naming its variable). */
function parse(env: Env): { values: Partial<Settings>; problems: { name: string; message: string }[] } {
  const values: Record<string, unknown> = {};
  const problems: { name: string; message: string }[] = [];
  for (const [name, definition] of Object.entries(SETTINGS)) {
    const raw = env[name];
    const result = definition.schema.safeParse(raw);
    if (result.success) values[name] = result.data;
    else {
      const shown = 'secret' in definition && definition.secret ? '' : ` (not ${JSON.stringify(raw)})`;
      problems.push({ name, message: `${result.error.issues.map((issue) => issue.message).join('; ')}${shown}` });
    }
  }
  const { HTTP_HEADERS_TIMEOUT_MS: headers, HTTP_REQUEST_TIMEOUT_MS: request } = values as Partial<Settings>;
  if (headers !== undefined && request !== undefined && headers > request) {
    problems.push({ name: 'HTTP_HEADERS_TIMEOUT_MS', message: `must not exceed HTTP_REQUEST_TIMEOUT_MS (${headers} > ${request})` });
  }
  return { values: values as Partial<Settings>, problems };
}

/** The settings `env` gives, or a SettingsError naming every malformed one. */
export function parseSettings(env: Env): Settings {
  const { values, problems } = parse(env);
  if (problems.length > 0) throw new SettingsError(problems);
  return values as Settings;
}

let parsed: Settings | undefined;

/**
 * The service's settings, parsed from process.env once per process (per module copy). The only
 * reader of process.env in lib/, app/ and inngest/ (a test holds that line).
 */
export function settings(): Settings {
  return (parsed ??= parseSettings(process.env));
}

/** The next settings() parses process.env again: for scripts and tests that write process.env. */
export function forgetSettings(): void {
  parsed = undefined;
}

/**
 * Everything wrong with `env` as a start sees it: malformed settings, names that look like a
 * setting's but are none (a typo: lib/settings/unknown-settings.ts), and a sealing key that is
 * set but not 64 hex characters. Throws a SettingsError naming each; returns the settings.
 */
export function checkSettingsAtStart(env: Env = process.env): Settings {
  const { values, problems } = parse(env);
  for (const { name, suggestion } of unknownSettings(env)) {
    problems.push({ name, message: `not a setting of this service${suggestion ? `; did you mean ${suggestion}?` : ''}` });
  }
  const key = values.SEALING_KEY !== undefined ? 'SEALING_KEY' : values.WEBHOOK_SECRET_KEY !== undefined ? 'WEBHOOK_SECRET_KEY' : null;
  if (key && values[key] !== '' && !/^[0-9a-fA-F]{64}$/.test(values[key]!)) problems.push({ name: key, message: 'must be 64 hex characters (32 random bytes)' });
  if (problems.length > 0) throw new SettingsError(problems);
  return values as Settings;
}
