import { z } from 'zod';

/**
 * Every environment variable the service reads: its parser (raw text -> typed value, with the
 * default), the default as a person reads it, and what it means. docs/operations.md's
 * Configuration table is rendered from this list (`npm run settings:docs`); a test keeps it current.
 */
export type SettingDefinition<T = unknown> = {
  schema: z.ZodType<T, string | undefined>;
  /** The default as the docs table shows it (Markdown). */
  shown: string;
  meaning: string;
  /** Never echoed in an error message (a key, a password, a URL that may carry one). */
  secret?: boolean;
};

const define = <T>(schema: z.ZodType<T, string | undefined>, shown: string, meaning: string, options: { secret?: boolean } = {}): SettingDefinition<T> => ({
  schema,
  shown,
  meaning,
  ...options,
});

/** Empty or blank text counts as unset for numbers, choices and flags (`FOO=` in a compose file). */
const blank = (raw: string | undefined): raw is undefined => raw === undefined || raw.trim() === '';

/** A whole number in [min, max]; unset or blank: `fallback` (undefined: stays unset). */
function wholeNumber(min: number, max: number): z.ZodType<number | undefined, string | undefined>;
function wholeNumber(min: number, max: number, fallback: number): z.ZodType<number, string | undefined>;
function wholeNumber(min: number, max: number, fallback?: number): z.ZodType<number | undefined, string | undefined> {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (blank(raw)) return fallback;
      const value = Number(raw.trim());
      if (Number.isInteger(value) && value >= min && value <= max) return value;
      const range = max === Number.MAX_SAFE_INTEGER ? `a whole number from ${min}` : `a whole number from ${min} to ${max}`;
      ctx.addIssue({ code: 'custom', message: `must be ${range}` });
      return z.NEVER;
    });
}

/** One of `choices` (compared trimmed and lower-cased); unset or blank: `fallback`. */
function choice<const C extends string, F extends C | undefined>(choices: readonly C[], fallback: F) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): C | F => {
      if (blank(raw)) return fallback;
      const value = raw.trim().toLowerCase() as C;
      if (choices.includes(value)) return value;
      ctx.addIssue({ code: 'custom', message: `must be one of ${choices.join(', ')}` });
      return z.NEVER;
    });
}

/** `true` or `false` (also `1`/`0` where `numeric`); unset or blank: `fallback`. */
function flag(fallback: boolean, { numeric = false } = {}) {
  const yes = numeric ? ['true', '1'] : ['true'];
  const no = numeric ? ['false', '0'] : ['false'];
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (blank(raw)) return fallback;
      const value = raw.trim().toLowerCase();
      if (yes.includes(value)) return true;
      if (no.includes(value)) return false;
      ctx.addIssue({ code: 'custom', message: `must be ${[...yes, ...no].join(', ').replace(/, ([^,]*)$/, ' or $1')}` });
      return z.NEVER;
    });
}

/** `1` turns it on; unset, blank or `0`: off (set by `npm start` itself). */
const onOff = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (blank(raw) || raw.trim() === '0') return false;
      if (raw.trim() === '1') return true;
      ctx.addIssue({ code: 'custom', message: 'must be 1 or 0' });
      return z.NEVER;
    });

/** Text as given (an empty value stays empty: readers treat it as unset where that matters). */
const text = () => z.string().optional();

/** Text as given; unset: `fallback`. */
const textOr = (fallback: string) => z.string().optional().transform((raw) => raw ?? fallback);

/** An absolute http(s) URL, or unset. */
const httpUrl = () =>
  z
    .string()
    .optional()
    .refine((raw) => raw === undefined || raw === '' || /^https?:\/\/[^/]/.test(raw) && URL.canParse(raw), { message: 'must be an absolute http:// or https:// URL' });

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const JOB_RUNNERS = ['in-process', 'inngest', 'off'] as const;

export const SETTINGS = {
  PORT: define(wholeNumber(0, 65_535, 3000), '`3000`', 'Where `npm start` listens (its port).'),
  HOST: define(text(), '`0.0.0.0` (`localhost` for `npm run dev`)', 'Where `npm start` listens (its address).'),
  DATABASE_URL: define(
    text(),
    'embedded PostgreSQL',
    'With it, `npm start` migrates that database and uses it (no demo unless `SEED_DEMO=true`).',
    { secret: true },
  ),
  SEED_DEMO: define(flag(false), '`false`', 'Seed the demo workspace, keys and people on a `DATABASE_URL` database too.'),
  EMBEDDED_PG_PORT: define(wholeNumber(1, 65_535), 'a free port', 'Port of the embedded PostgreSQL.'),
  DATABASE_READ_URL: define(
    text(),
    'unset',
    'A streaming replica (hot standby) of `DATABASE_URL`. GET requests\' searches, traces, comparisons, the Overview and request logs read from it; a caller who has just written reads from the primary until the replica has replayed the write; an unreachable replica is answered for by the primary ("Scaling out", "Reads on a replica").',
    { secret: true },
  ),
  DATABASE_POOL_SIZE: define(
    wholeNumber(1, 10_000, 10),
    '`10`',
    'Connections each service process opens to `DATABASE_URL` (PostgreSQL, or PgBouncer), at most: requests, the job runner and the rate limiter share them. An instance opens up to `WEB_CONCURRENCY × DATABASE_POOL_SIZE` ("Scaling out").',
  ),
  DATABASE_PREPARED_STATEMENTS: define(
    flag(true, { numeric: true }),
    '`true`',
    '`true`: hot-path statements are prepared once per connection (named prepared statements). `false`: every statement is sent unnamed, including any a library names itself; needed behind a transaction-mode pooler without prepared-statement support (PgBouncer before 1.21, or `max_prepared_statements = 0`).',
  ),
  WEB_CONCURRENCY: define(
    wholeNumber(1, 1024),
    'the number of cores; half of them when PostgreSQL is on this machine',
    'Service processes (`scripts/serve.mjs` runs a cluster of Next.js servers on one port). The default leaves PostgreSQL half the cores when `DATABASE_URL` is this machine\'s (localhost, 127.x, a Unix socket, or the embedded database): it spends about as much CPU a quote as the service.',
  ),
  SERVICE_MAX_HEAP_MB: define(
    wholeNumber(16, 1_048_576, 320),
    '`320`',
    'V8 old-generation limit of each service process (keeps each near 300 MB RSS under load).',
  ),
  SERVICE_SEMI_SPACE_MB: define(
    wholeNumber(1, 1024, 32),
    '`32`',
    'V8 young-generation semi-space of each service process: request garbage dies there instead of being promoted.',
  ),
  NEXTAUTH_URL: define(httpUrl(), '`http://localhost:$PORT`', "The portal's public origin (next-auth). Browse the portal on exactly this host."),
  NEXTAUTH_SECRET: define(
    text(),
    'random per start (embedded)',
    "Signs next-auth's CSRF and sign-in cookies. Set it in any deployment with more than one instance.",
    { secret: true },
  ),
  OIDC_ISSUER: define(
    httpUrl(),
    'unset',
    'Any OpenID Connect provider for portal sign-in (with `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`). The redirect URI to register is `$NEXTAUTH_URL/api/auth/callback/oidc`.',
  ),
  OIDC_CLIENT_ID: define(text(), 'unset', "The portal's client id at the OpenID Connect provider."),
  OIDC_CLIENT_SECRET: define(text(), 'unset', "The portal's client secret at the OpenID Connect provider.", { secret: true }),
  OIDC_NAME: define(textOr('Single sign-on'), '`Single sign-on`', 'The sign-in button\'s name for that provider.'),
  SEALING_KEY: define(
    text(),
    'made once in `.data/` (embedded)',
    '64 hex characters (32 random bytes) that encrypt webhook signing secrets and receipt signing keys at rest. Required to quote (every receipt is signed, docs/receipts.md), create endpoints or deliver, and by `npm run keys -- rotate-receipt-signing-key` on a `DATABASE_URL` database. Keep it: secrets sealed with a lost key cannot be opened.',
    { secret: true },
  ),
  WEBHOOK_SECRET_KEY: define(text(), 'unset', 'The former name of `SEALING_KEY`, still read when `SEALING_KEY` is unset.', { secret: true }),
  REQUEST_LOG_RETENTION_DAYS: define(
    wholeNumber(31, 3650, 90),
    '`90`',
    'Days the request log keeps its rows (31–3650), for workspaces without a setting of their own: older days are dropped whole by the minute job, once no workspace keeps them longer (docs/request-log.md, "Retention per workspace"). Bodies are dropped after 30 days whatever this says.',
  ),
  WEBHOOK_SEND_WINDOW: define(
    wholeNumber(1, 256, 32),
    '`32`',
    'The most deliveries to one endpoint in flight at once (1–256) while a backlog drains: an endpoint is sent one event at a time (arrivals in outbox order) until the next has waited 1 s, then up to this many, still started in outbox order (docs/webhooks.md, Order). 1: never more than one. Each process opens up to this many connections per endpoint it sends to (at most 50 endpoints at once).',
  ),
  EVENT_STREAMS_PER_PROCESS: define(
    wholeNumber(1, Number.MAX_SAFE_INTEGER, 300),
    '`300`',
    'Event streams (`GET /v1/event-stream`, `qps listen`) one service process holds at once; an instance holds `WEB_CONCURRENCY ×` this. Beyond: 503 `service_unavailable` with `retry-after: 1` on a connection the process closes, so that the retry may reach another process ("Event streams").',
  ),
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: define(
    flag(false),
    '`false` (`true` in effect on the embedded database)',
    'Allow endpoints and deliveries on loopback and private addresses (an endpoint\'s `targetNote` says so); link-local and metadata addresses stay refused (docs/webhooks.md, Target). Processes that create endpoints by calling the verb directly (the bench, `npm run reliability`) set it as the service they drive does.',
  ),
  JOB_RUNNER: define(
    choice(JOB_RUNNERS, undefined),
    '`in-process`',
    '`in-process`, `inngest` (also implied by `INNGEST_SIGNING_KEY` or `INNGEST_DEV`), or `off` (docs/webhooks.md, "Running with Inngest").',
  ),
  INNGEST_SIGNING_KEY: define(text(), 'unset', 'With Inngest: the key Inngest signs its calls to `/api/inngest` with.', { secret: true }),
  INNGEST_EVENT_KEY: define(text(), 'unset', 'With Inngest: the key events are sent with.', { secret: true }),
  INNGEST_BASE_URL: define(httpUrl(), 'Inngest Cloud', 'With a self-hosted Inngest: where it answers.'),
  INNGEST_DEV: define(text(), 'unset', 'With the Inngest Dev Server: `1` (or its URL). Implies `JOB_RUNNER=inngest`.'),
  HTTP_HEADERS_TIMEOUT_MS: define(
    wholeNumber(1, Number.MAX_SAFE_INTEGER, 10_000),
    '`10000`',
    "A client has this long to send a request's headers; then 408 `request_timeout`. At most `HTTP_REQUEST_TIMEOUT_MS`.",
  ),
  HTTP_REQUEST_TIMEOUT_MS: define(
    wholeNumber(1, Number.MAX_SAFE_INTEGER, 30_000),
    '`30000`',
    "A client has this long to send the whole request, body included; then 408 (Node's default is 5 minutes), answered by the route reading the body, in its surface's envelope; a request already answered (a 401 before its body came) is not answered again: its connection is closed.",
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: define(
    wholeNumber(1, Number.MAX_SAFE_INTEGER, 65_000),
    '`65000`',
    'An idle keep-alive connection is closed after this: longer than the 60 s of common load balancers, so that they never reuse a connection the service has closed.',
  ),
  SMTP_URL: define(
    text(),
    'unset',
    "With it (e.g. `smtp://user:pass@mail.example:587`, `smtps://…`), the business's owners get an email for each new lead, each held Live quote and each experiment variant a guardrail pauses, sent by the minute job `send-owner-notifications` (nodemailer; five tries, five minutes apart; the emails name the customer and the price and link to the portal). Unset: nothing is queued; the portal and webhooks tell the business.",
    { secret: true },
  ),
  SMTP_FROM: define(textOr('Quote Pricing <no-reply@localhost>'), '`Quote Pricing <no-reply@localhost>`', 'The sender of those emails.'),
  LOG_LEVEL: define(
    choice(LOG_LEVELS, 'info'),
    '`info`',
    'pino level (`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`). Logs carry request ids, never API keys, session tokens or `whsec_` secrets. A logged error keeps its type, message, stack (with causes) and plain fields such as `code`; object-valued fields, like the pg client on a connection error, are dropped.',
  ),
  LOG_FILE: define(text(), 'unset (stdout)', "A file the service's log lines are appended to instead of stdout (the in-process test harness reads it)."),
  AUTH_DEV_LOGIN: define(
    onOff(),
    'unset (`1` when `npm start` started the embedded database)',
    'With `1`, the development sign-in (an email, no password) where it cannot reach production: `NEXTAUTH_URL` plain http on loopback, and `next dev` or the embedded database (lib/auth/dev-sign-in.ts).',
  ),
  EMBEDDED_DATABASE: define(
    onOff(),
    'unset (`1` when `npm start` started the embedded database)',
    '`1`: the service runs on the embedded PostgreSQL (set by `npm start`): private webhook targets and the development sign-in are allowed.',
  ),
  NODE_ENV: define(text(), 'set by Next.js', '`production` under `npm start`; anything else allows the development sign-in without the embedded database.'),
} satisfies Record<string, SettingDefinition>;

export type SettingName = keyof typeof SETTINGS;

/** The settings, typed: each variable's parsed value (its default when unset). */
export type Settings = { [K in SettingName]: z.output<(typeof SETTINGS)[K]['schema']> };

/** Names only this service's settings use: an unknown one among them is a typo (lib/settings/unknown-settings.ts). */
export const OWNED_NAMES: readonly RegExp[] = [
  /^(DATABASE|SEALING|WEBHOOKS?|REQUEST_LOG|EVENT_STREAMS|SMTP|OIDC|SERVICE|JOB|EMBEDDED|SEED)_/,
  /^HTTP_\w*TIMEOUT/,
];

/**
 * Kubernetes gives every container `<SERVICE>_SERVICE_HOST`, `<SERVICE>_SERVICE_PORT` and
 * `<SERVICE>_PORT…` for each service of its namespace: a service named `database` or `smtp`
 * must not stop the start.
 */
export const FOREIGN_PATTERNS: readonly RegExp[] = [/_SERVICE_(HOST|PORT)(_\w+)?$/, /_PORT(_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?$/];

/**
 * Names that look like a setting's but belong to a library or the system: never taken for a
 * typo. Inngest's SDK reads its own INNGEST_* variables; next-auth v4 its NEXTAUTH_URL_INTERNAL.
 */
export const FOREIGN_NAMES = new Set([
  'HOME',
  'HOSTNAME',
  'NEXTAUTH_URL_INTERNAL',
  'INNGEST_ENV',
  'INNGEST_SIGNING_KEY_FALLBACK',
  'INNGEST_DEVSERVER_URL',
  'INNGEST_EVENT_API_BASE_URL',
  'INNGEST_API_BASE_URL',
  'INNGEST_SERVE_HOST',
  'INNGEST_SERVE_PATH',
  'INNGEST_SERVE_ORIGIN',
  'INNGEST_STREAMING',
  'INNGEST_LOG_LEVEL',
]);
