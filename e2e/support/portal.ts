import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const appUrl = () => process.env.APP_URL!;

/** Signs in through the development sign-in form (the OIDC journey has its own spec). */
export async function signIn(page: Page, email: string, callbackUrl = '/portal') {
  await page.goto(`${appUrl()}/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in without a password' }).click();
  await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
}

/** Keeps a full-page screenshot as a test artifact (test-results/screenshots/<name>.png). */
/** A picture of the whole page, or with `{ fullPage: false }` of what the window shows. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  const dir = path.resolve(import.meta.dirname, '../../test-results/screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}

/** The session cookie's value: the same token works as `Authorization: Bearer` on /v1. */
export async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'next-auth.session-token');
  expect(cookie, 'session cookie').toBeTruthy();
  return cookie!.value;
}

/**
 * The secret a one-time-secret panel shows (API keys, webhook signing secrets): checks the panel
 * has focus and warns, copies it, then "Done" must remove it from the page.
 */
export async function takeOneTimeSecret(page: Page, heading: RegExp, secretLabel: string, screenshotName: string) {
  const panel = page.getByRole('region', { name: heading });
  await expect(panel).toBeFocused();
  await expect(panel).toContainText('it will not be shown again');
  const secret = await panel.getByLabel(secretLabel).inputValue();
  await panel.getByRole('button', { name: 'Copy' }).click();
  await expect(panel.getByText('Copied to your clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await screenshot(page, screenshotName);
  await panel.getByRole('button', { name: 'Done, I have stored it' }).click();
  await expect(panel).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  return secret;
}
