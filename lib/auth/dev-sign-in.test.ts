import { describe, expect, it } from 'vitest';
import { parseSettings } from '../settings/settings';
import { devSignInEnabled } from './dev-sign-in';

const embedded: Record<string, string | undefined> = {
  AUTH_DEV_LOGIN: '1',
  NEXTAUTH_URL: 'http://localhost:3000',
  NODE_ENV: 'production',
  EMBEDDED_DATABASE: '1',
  DATABASE_URL: 'postgresql://postgres:postgres@127.0.0.1:5555/quotes',
};

/** Whether the development sign-in is on with these variables, as the service parses them. */
const enabledWith = (env: Record<string, string | undefined>) => devSignInEnabled(parseSettings(env));

describe('devSignInEnabled', () => {
  it('is on for the embedded start and for next dev on loopback', () => {
    expect(enabledWith(embedded)).toBe(true);
    expect(enabledWith({ ...embedded, NODE_ENV: 'development', EMBEDDED_DATABASE: undefined })).toBe(true);
  });

  it('cannot be turned on for a deployment, whatever else is set', () => {
    expect(enabledWith({ ...embedded, AUTH_DEV_LOGIN: undefined })).toBe(false);
    expect(enabledWith({ ...embedded, AUTH_DEV_LOGIN: '0' })).toBe(false);
    expect(enabledWith({ ...embedded, NEXTAUTH_URL: 'https://quotes.example.com' })).toBe(false);
    expect(enabledWith({ ...embedded, NEXTAUTH_URL: 'https://localhost:3000' })).toBe(false);
    expect(enabledWith({ ...embedded, EMBEDDED_DATABASE: undefined })).toBe(false);
    expect(enabledWith({ ...embedded, DATABASE_URL: 'postgresql://db.internal:5432/quotes' })).toBe(false);
    // A NEXTAUTH_URL that is no URL stops the start (lib/settings); the check holds without it too.
    expect(devSignInEnabled({ ...parseSettings(embedded), NEXTAUTH_URL: 'not a url' })).toBe(false);
    expect(() => parseSettings({ ...embedded, NEXTAUTH_URL: 'not a url' })).toThrow(/NEXTAUTH_URL/);
  });
});
