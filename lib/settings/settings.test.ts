import { describe, expect, it } from 'vitest';
import { SETTINGS } from './catalogue';
import { SettingsError, checkSettingsAtStart, parseSettings } from './settings';
import { editDistance, unknownSettings } from './unknown-settings';

/** The problems `env` has at start, one `NAME: message` line each. */
function problemsAtStart(env: Record<string, string | undefined>): string[] {
  try {
    checkSettingsAtStart(env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).problems.map((p) => `${p.name}: ${p.message}`);
  }
}

describe('the settings', () => {
  it('give every default when nothing is set', () => {
    const defaults = parseSettings({});
    expect(defaults).toMatchObject({
      PORT: 3000,
      SEED_DEMO: false,
      DATABASE_POOL_SIZE: 10,
      DATABASE_PREPARED_STATEMENTS: true,
      SERVICE_MAX_HEAP_MB: 320,
      SERVICE_SEMI_SPACE_MB: 32,
      OIDC_NAME: 'Single sign-on',
      REQUEST_LOG_RETENTION_DAYS: 90,
      WEBHOOK_SEND_WINDOW: 32,
      EVENT_STREAMS_PER_PROCESS: 300,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: false,
      HTTP_HEADERS_TIMEOUT_MS: 10_000,
      HTTP_REQUEST_TIMEOUT_MS: 30_000,
      HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000,
      SMTP_FROM: 'Quote Pricing <no-reply@localhost>',
      LOG_LEVEL: 'info',
      AUTH_DEV_LOGIN: false,
      EMBEDDED_DATABASE: false,
    });
    for (const name of ['HOST', 'DATABASE_URL', 'WEB_CONCURRENCY', 'JOB_RUNNER', 'SEALING_KEY', 'SMTP_URL', 'NEXTAUTH_URL'] as const) expect(defaults[name]).toBeUndefined();
  });

  it('count a blank number, choice or flag as unset', () => {
    expect(parseSettings({ DATABASE_POOL_SIZE: ' ', LOG_LEVEL: '', WEBHOOK_SEND_WINDOW: '', SEED_DEMO: '' })).toMatchObject({ DATABASE_POOL_SIZE: 10, LOG_LEVEL: 'info', WEBHOOK_SEND_WINDOW: 32, SEED_DEMO: false });
  });

  it('parse as the readers did: numbers, flags, choices', () => {
    expect(parseSettings({ DATABASE_POOL_SIZE: '25', REQUEST_LOG_RETENTION_DAYS: ' 31 ', WEBHOOK_SEND_WINDOW: '256' })).toMatchObject({ DATABASE_POOL_SIZE: 25, REQUEST_LOG_RETENTION_DAYS: 31, WEBHOOK_SEND_WINDOW: 256 });
    expect(parseSettings({ DATABASE_PREPARED_STATEMENTS: 'FALSE' }).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(parseSettings({ DATABASE_PREPARED_STATEMENTS: '0' }).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(parseSettings({ DATABASE_PREPARED_STATEMENTS: '1' }).DATABASE_PREPARED_STATEMENTS).toBe(true);
    expect(parseSettings({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(parseSettings({ AUTH_DEV_LOGIN: '1', EMBEDDED_DATABASE: '1' })).toMatchObject({ AUTH_DEV_LOGIN: true, EMBEDDED_DATABASE: true });
    expect(parseSettings({ JOB_RUNNER: 'off' }).JOB_RUNNER).toBe('off');
    // Texts are kept as given: an empty SEALING_KEY is "set but empty" (sealingKeyProblem says so).
    expect(parseSettings({ SEALING_KEY: '' }).SEALING_KEY).toBe('');
  });

  it('refuse a malformed value, naming the variable', () => {
    const cases: Record<string, string> = {
      DATABASE_POOL_SIZE: 'abc',
      PORT: '70000',
      REQUEST_LOG_RETENTION_DAYS: '30',
      WEBHOOK_SEND_WINDOW: '257',
      EVENT_STREAMS_PER_PROCESS: '1.5',
      DATABASE_PREPARED_STATEMENTS: 'maybe',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'yes',
      SEED_DEMO: '1',
      AUTH_DEV_LOGIN: 'true',
      JOB_RUNNER: 'cron',
      LOG_LEVEL: 'verbose',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '0',
      NEXTAUTH_URL: 'localhost:3000',
      OIDC_ISSUER: 'not a url',
    };
    for (const [name, value] of Object.entries(cases)) {
      expect(() => parseSettings({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^[^]*\\n  ${name}: .*${JSON.stringify(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
  });

  it('refuse a headers timeout longer than the request timeout', () => {
    expect(() => parseSettings({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/);
  });

  it('never echo a secret', () => {
    expect(() => parseSettings({ DATABASE_POOL_SIZE: 'x' })).toThrow(/not "x"/);
    for (const [name, definition] of Object.entries(SETTINGS)) if ('secret' in definition && definition.secret) expect(definition.schema.safeParse('hunter2').success, name).toBe(true);
    expect(problemsAtStart({ SEALING_KEY: 'hunter2' })).toEqual(['SEALING_KEY: must be 64 hex characters (32 random bytes)']);
  });
});

describe('a start', () => {
  it('stops on a malformed setting, a misspelt one and a malformed sealing key, naming each', () => {
    expect(problemsAtStart({ PATH: '/usr/bin', DATABASE_POOL_SIZE: 'abc', LOG_LEVL: 'debug', DATABASE_POOL: '20', WEBHOOK_SECRET_KEY: 'short' })).toEqual([
      'DATABASE_POOL_SIZE: must be a whole number from 1 to 10000 (not "abc")',
      'LOG_LEVL: not a setting of this service; did you mean LOG_LEVEL?',
      'DATABASE_POOL: not a setting of this service',
      'WEBHOOK_SECRET_KEY: must be 64 hex characters (32 random bytes)',
    ]);
  });

  it('passes with what npm start and the test harnesses set', () => {
    expect(
      problemsAtStart({
        ...process.env,
        DATABASE_URL: 'postgresql://postgres:postgres@127.0.0.1:5555/quotes',
        SEALING_KEY: 'ab'.repeat(32),
        NEXTAUTH_URL: 'http://localhost:3000',
        NEXTAUTH_SECRET: 'x',
        AUTH_DEV_LOGIN: '1',
        EMBEDDED_DATABASE: '1',
        TEST_DATABASE_URL: 'postgresql://x',
        TEST_TEMPLATE_DATABASE: 'template',
        TEST_TLS_CERT: '/tmp/c',
        IDP_ISSUER: 'http://localhost:1',
        IDP_HOST: 'localhost',
        IDP_PORT: '1',
        NODE_EXTRA_CA_CERTS: '/tmp/ca',
        NEXT_RUNTIME: 'nodejs',
        INNGEST_ENV: 'branch',
        INNGEST_SIGNING_KEY_FALLBACK: 'x',
        HOME: '/root',
        HOSTNAME: 'box',
        // Kubernetes' links to services named database and smtp.
        DATABASE_SERVICE_HOST: '10.0.0.1',
        DATABASE_SERVICE_PORT: '5432',
        DATABASE_PORT: 'tcp://10.0.0.1:5432',
        DATABASE_PORT_5432_TCP_ADDR: '10.0.0.1',
        SMTP_SERVICE_PORT_SMTP: '25',
      }),
    ).toEqual([]);
  });
});

describe('unknown settings', () => {
  it('are near misses of a setting, or names under a prefix only the service uses', () => {
    const found = unknownSettings({ SEALNG_KEY: 'x', database_url: 'x', SMTP_PASSWORD: 'x', HTTP_REQUEST_TIMEOUT: '1', JOB_RUNER: 'off', HOME: '/', PWD: '/', INNGEST_ENV: 'x', IDP_ISSUER: 'x' });
    expect(found).toEqual([
      { name: 'SEALNG_KEY', suggestion: 'SEALING_KEY' },
      { name: 'database_url', suggestion: 'DATABASE_URL' },
      { name: 'SMTP_PASSWORD', suggestion: null },
      { name: 'HTTP_REQUEST_TIMEOUT', suggestion: null },
      { name: 'JOB_RUNER', suggestion: 'JOB_RUNNER' },
    ]);
  });

  it('are measured in edits, a swap of neighbours counting one', () => {
    expect(editDistance('LOG_LEVEL', 'LOG_LEVLE')).toBe(1);
    expect(editDistance('PORT', 'PORT')).toBe(0);
    expect(editDistance('HOST', 'HOME')).toBe(2);
  });
});
