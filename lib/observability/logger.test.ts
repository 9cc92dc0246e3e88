import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger';

/** A logger with the service's options, writing JSON lines into an array. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ ...loggerOptions, level: 'info' }, stream), lines, last: () => JSON.parse(lines.at(-1)!) };
}

/** What pg-pool emits when PostgreSQL closes an idle connection: a DatabaseError with the client on it. */
function idleConnectionError() {
  const client = new pg.Client({ connectionString: 'postgresql://app:hunter2-password@db.internal:5432/quotes' });
  Object.assign(client, { secretKey: 987654321, processID: 4242 });
  (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements = {
    q_1: 'SELECT secret_ciphertext FROM webhook_endpoints WHERE id = $1',
  };
  return Object.assign(new Error('terminating connection due to administrator command'), {
    name: 'error',
    severity: 'FATAL',
    code: '57P01',
    routine: 'ProcessInterrupts',
    client,
  });
}

describe('logger', () => {
  it('logs an error that carries its pg client as type, message, stack and plain fields only', () => {
    const { log, lines, last } = capture();
    log.warn({ err: idleConnectionError() }, 'idle database connection closed');
    expect(lines).toHaveLength(1);
    const { err } = last();
    expect(err).toEqual({
      type: 'Error',
      name: 'error',
      message: 'terminating connection due to administrator command',
      stack: expect.stringContaining('terminating connection due to administrator command'),
      severity: 'FATAL',
      code: '57P01',
      routine: 'ProcessInterrupts',
    });
    for (const leak of ['client', 'connectionParameters', 'parsedStatements', 'secret_ciphertext', 'hunter2', '987654321', 'db.internal']) {
      expect(lines[0]).not.toContain(leak);
    }
  });

  it('keeps causes in the message and stack, and reduces nested and aggregated errors the same way', () => {
    const { log, lines, last } = capture();
    const aggregate = new AggregateError([idleConnectionError()], 'several failed');
    log.error({ err: new Error('claim failed', { cause: idleConnectionError() }) }, 'background job failed');
    expect(last().err.message).toBe('claim failed: terminating connection due to administrator command');
    log.error({ err: aggregate }, 'batch failed');
    expect(last().err.aggregateErrors).toEqual([expect.objectContaining({ code: '57P01', message: 'terminating connection due to administrator command' })]);
    const wrapped = Object.assign(new Error('outer'), { original: idleConnectionError() });
    log.error({ err: wrapped }, 'wrapped');
    expect(last().err.original).toMatchObject({ code: '57P01' });
    expect(lines.join('\n')).not.toMatch(/client|parsedStatements|hunter2/);
  });

  it('reduces a thrown non-error object too, and still redacts secrets and authorization', () => {
    const { log, last } = capture();
    log.error({ err: { reason: 'odd', client: { password: 'hunter2' } } }, 'thrown object');
    expect(last().err).toEqual({ reason: 'odd' });
    log.error({ err: Object.assign(new Error('signing failed'), { secret: 'whsec_abc' }), authorization: 'Bearer sk_live_x' }, 'redacted');
    expect(last()).toMatchObject({ err: { secret: '[redacted]' }, authorization: '[redacted]' });
    log.info({ err: 'plain text' }, 'a string');
    expect(last().err).toBe('plain text');
  });
});
