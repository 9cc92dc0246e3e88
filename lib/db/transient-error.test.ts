import { describe, expect, it } from 'vitest';
import { isTransientDatabaseError } from './transient-error';

describe('isTransientDatabaseError', () => {
  it('takes deadlocks, lost connections and a server going away as passing', () => {
    for (const code of ['40P01', '40001', '08006', '57P01', '53300', 'ECONNRESET', 'P2034']) expect(isTransientDatabaseError({ code })).toBe(true);
    expect(isTransientDatabaseError({ code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '40P01' } } } })).toBe(true);
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('takes a moment of overload as passing: no pool connection in time, a transaction that could not start or ran out of time', () => {
    expect(isTransientDatabaseError(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isTransientDatabaseError(Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' }))).toBe(true);
  });

  it('does not excuse real faults', () => {
    for (const code of ['23505', '42P01', '22P02', undefined]) expect(isTransientDatabaseError({ code })).toBe(false);
    expect(isTransientDatabaseError(new TypeError('x is undefined'))).toBe(false);
  });
});
