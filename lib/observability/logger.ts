import pino from 'pino';

/**
 * The service's logger. Secrets never reach it: callers log ids, not credentials, and these
 * paths are redacted in case a header or body is ever passed whole.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: undefined,
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
});

export type Logger = typeof logger;
