import pino from 'pino';
import { settings } from '../settings/settings';

type Fields = Record<string, unknown>;

/** Keeps a serialized error's plain fields, and nested errors reduced the same way. */
function reduceError(serialized: Fields): Fields {
  const kept: Fields = {};
  for (const [key, value] of Object.entries(serialized)) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') kept[key] = value;
    else if (typeof value === 'bigint') kept[key] = value.toString();
    else if (key === 'aggregateErrors' && Array.isArray(value)) kept[key] = value.map((e: Fields) => reduceError(e));
    else if (typeof value === 'object' && typeof (value as Fields).message === 'string') kept[key] = reduceError(value as Fields);
  }
  return kept;
}

/**
 * `err` as pino's standard serializer gives it (type, message and stack, causes included),
 * keeping only the error's own plain fields (code, PostgreSQL's severity, detail, routine, …).
 * Object-valued fields are dropped: pg's idle-connection error carries its whole client
 * (connection parameters, prepared statements, cancel key), an HTTP error its request.
 */
function serializeError(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return reduceError(pino.stdSerializers.err(value as Error) as unknown as Fields);
}

/** The options every logger of the service is built with (exported for tests). */
export const loggerOptions: pino.LoggerOptions = {
  level: settings().LOG_LEVEL,
  base: undefined,
  serializers: { err: serializeError, error: serializeError },
  redact: {
    paths: [
      'authorization',
      'headers.authorization',
      'req.headers.authorization',
      'headers.cookie',
      'secret',
      '*.secret',
      'apiKey',
      'sessionToken',
    ],
    censor: '[redacted]',
  },
};

/**
 * The service's logger. Secrets never reach it: callers log ids, not credentials, errors are
 * reduced to their plain fields, and these paths are redacted in case a header or body is ever
 * passed whole.
 */
export const logger = pino(
  loggerOptions,
  // LOG_FILE: lines go to that file instead of stdout (the in-process test harness reads it).
  settings().LOG_FILE ? pino.destination({ dest: settings().LOG_FILE!, append: true, sync: true }) : undefined,
);

export type Logger = typeof logger;
