import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineContract } from '../contract';
import { Responder } from './respond';

/** A failure as PostgreSQL sends it through `pg`, with its SQLSTATE. */
function databaseError(code: string, message: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code });
}

/** A write in the standard envelope, as a route's contract declares one. */
const contract = defineContract({
  operationId: 'createThing',
  method: 'POST',
  path: '/v1/things',
  summary: 'Create a thing',
  description: 'A route of this test only.',
  tags: ['Quotes'],
  auth: 'api_key',
  success: { status: 201, description: 'The thing.', schema: z.object({ id: z.string() }) },
  errors: [],
});

describe('Responder.fail', () => {
  const responder = () => new Responder(contract, new Request('http://localhost/v1/things', { method: 'POST' }), 'req_1', pino({ level: 'silent' }));

  it('answers a database failure that passes by itself with 503 and when to retry', async () => {
    for (const error of [
      databaseError('40P01', 'deadlock detected'),
      databaseError('40001', 'could not serialize access due to concurrent update'),
      databaseError('57P01', 'terminating connection due to administrator command'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' }),
    ]) {
      const r = responder();
      const response = r.fail(error);
      expect(response.status, error.message).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.json()).toEqual({ error: { code: 'service_unavailable', message: 'The service is briefly unavailable. Retry after 1 second.', requestId: 'req_1' } });
      expect(r.errorCode).toBe('service_unavailable');
    }
  });

  it('answers any other failure of ours with a 500 that tells nothing of it', async () => {
    for (const error of [databaseError('23505', 'duplicate key value violates unique constraint "quote_intents_pkey"'), new TypeError('x is undefined')]) {
      const response = responder().fail(error);
      expect(response.status).toBe(500);
      expect(response.headers.get('retry-after')).toBeNull();
      const body = await response.json();
      expect(body.error.code).toBe('internal_error');
      expect(JSON.stringify(body)).not.toContain(error.message);
    }
  });
});
