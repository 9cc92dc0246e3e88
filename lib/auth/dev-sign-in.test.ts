import { describe, expect, it } from 'vitest';
import { devSignInEnabled } from './dev-sign-in';

const embedded = {
  AUTH_DEV_LOGIN: '1',
  NEXTAUTH_URL: 'http://localhost:3000',
  NODE_ENV: 'production',
  EMBEDDED_DATABASE: '1',
  DATABASE_URL: 'postgresql://postgres:postgres@127.0.0.1:5555/quotes',
} as NodeJS.ProcessEnv;

describe('devSignInEnabled', () => {
  it('is on for the embedded start and for next dev on loopback', () => {
    expect(devSignInEnabled(embedded)).toBe(true);
    expect(devSignInEnabled({ ...embedded, NODE_ENV: 'development', EMBEDDED_DATABASE: undefined })).toBe(true);
  });

  it('cannot be turned on for a deployment, whatever else is set', () => {
    expect(devSignInEnabled({ ...embedded, AUTH_DEV_LOGIN: undefined })).toBe(false);
    expect(devSignInEnabled({ ...embedded, NEXTAUTH_URL: 'https://quotes.example.com' })).toBe(false);
    expect(devSignInEnabled({ ...embedded, NEXTAUTH_URL: 'https://localhost:3000' })).toBe(false);
    expect(devSignInEnabled({ ...embedded, EMBEDDED_DATABASE: undefined })).toBe(false);
    expect(devSignInEnabled({ ...embedded, DATABASE_URL: 'postgresql://db.internal:5432/quotes' })).toBe(false);
    expect(devSignInEnabled({ ...embedded, NEXTAUTH_URL: 'not a url' })).toBe(false);
  });
});
