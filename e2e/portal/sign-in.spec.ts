import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createPerson, createTenant, testDb } from '../../lib/testing/factories';
import { appUrl, screenshot, sessionToken } from '../support/portal';

test.beforeEach(async ({ page }) => {
  // oidc-provider's development pages import a web font; there is no network here.
  await page.route(/fonts\.googleapis\.com/, (route) => route.abort());
});

test('signs in through the OpenID Connect provider, and the session works as a bearer token', async ({ page }) => {
  const tenant = await createTenant();
  const email = `oidc-${Date.now()}@example.test`;
  // invited before the first sign-in: the sign-in adopts the invited person
  const invited = await createPerson(tenant, { permissions: 'all' });
  await testDb().user.update({ where: { id: invited.userId }, data: { email } });

  await page.goto(`${appUrl()}/portal`);
  await expect(page).toHaveURL(/\/signin/);
  await screenshot(page, 'sign-in');
  await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
  await page.locator('input[name=login]').fill(email);
  await page.locator('input[name=password]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Portal' })).toContainText(email);
  await expect(page.getByRole('article', { name: /Business/ })).toBeVisible();
  await screenshot(page, 'overview');

  const token = await sessionToken(page);
  const stored = await testDb().session.findMany({ where: { userId: invited.userId } });
  const digest = createHash('sha256').update(token).digest('hex');
  expect(stored.map((s) => s.sessionToken)).toContain(digest);
  expect(JSON.stringify(stored)).not.toContain(token);
  const me = await fetch(`${appUrl()}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect((await me.json()).data.user.email).toBe(email);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  const after = await fetch(`${appUrl()}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(after.status).toBe(401);
});

test('the development sign-in refuses cross-site posts', async () => {
  const res = await fetch(`${appUrl()}/api/auth/dev-login`, {
    method: 'POST',
    headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=victim%40example.test',
    redirect: 'manual',
  });
  expect(res.status).toBe(403);
  expect(res.headers.get('set-cookie')).toBeNull();
});
