import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_MAX_AGE_MS, FORM_MIN_AGE_MS, formTokenProblem, issueFormToken } from './form-token';
import { setEnv } from '../../test/support/settings';

describe('the acceptance form token', () => {
  let saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    saved = setEnv({ SEALING_KEY: 'ab'.repeat(32) });
  });
  afterAll(() => {
    setEnv(saved);
  });
  const quote = randomUUID();
  const issued = new Date('2031-01-01T10:00:00Z');
  const after = (ms: number) => new Date(issued.getTime() + ms);

  it('lets the form be sent from 2 seconds to 24 hours after it was shown, for its quote only', () => {
    const token = issueFormToken(quote, issued);
    expect(formTokenProblem(token, quote, after(FORM_MIN_AGE_MS))).toBeNull();
    expect(formTokenProblem(token, quote, after(FORM_MAX_AGE_MS))).toBeNull();
    expect(formTokenProblem(token, quote, after(FORM_MIN_AGE_MS - 1))).toBe('too_fast');
    expect(formTokenProblem(token, quote, after(FORM_MAX_AGE_MS + 1))).toBe('stale');
    expect(formTokenProblem(token, randomUUID(), after(5_000))).toBe('invalid');
  });

  it('refuses forged, altered and malformed tokens', () => {
    const token = issueFormToken(quote, issued);
    const [time, mac] = token.split('.');
    expect(formTokenProblem(`${Number(time) - 10_000}.${mac}`, quote, after(5_000))).toBe('invalid');
    expect(formTokenProblem(`${time}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, quote, after(5_000))).toBe('invalid');
    for (const bad of ['', 'nonsense', `${time}.`, `.${mac}`, `x${time}.${mac}`]) expect(formTokenProblem(bad, quote, after(5_000))).toBe('invalid');
  });

  it('depends on the configured key: another key does not accept it', () => {
    const token = issueFormToken(quote, issued);
    setEnv({ SEALING_KEY: 'cd'.repeat(32) });
    expect(formTokenProblem(token, quote, after(5_000))).toBe('invalid');
    setEnv({ SEALING_KEY: 'ab'.repeat(32) });
  });
});
