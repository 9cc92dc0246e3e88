import { expect, test } from '@playwright/test';
import { demoExample } from '../../lib/books/demo-book';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn } from '../support/portal';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone every portal page fits the screen, and the navigation is a menu', async ({ page }) => {
  test.setTimeout(90_000);
  const tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: 'all', businessRole: 'owner' });
  // Something on every page: a quote (quotes, request log, traces) and an endpoint (webhooks).
  const quote = await fetch(`${appUrl()}/v1/public_quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, ...demoExample }),
  }).then((r) => r.json());
  await fetch(`${appUrl()}/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ projectId: tenant.projectId, environment: 'live', url: 'https://hooks.example.test/quotes' }),
  });
  await signIn(page, admin.email);

  // The links are folded away until the menu is opened; choosing one closes it again.
  const nav = page.getByRole('navigation', { name: 'Portal' });
  await expect(nav.getByRole('link', { name: 'Quotes' })).toBeHidden();
  // A click before the page has hydrated does nothing: press until the menu says it is open.
  const menu = nav.getByRole('button', { name: /^(Menu|Close)$/ });
  await expect(async () => {
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true', { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await screenshot(page, 'phone-menu', { fullPage: false });
  await nav.getByRole('link', { name: 'Quotes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Quotes' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Quotes' })).toBeHidden();

  const pages = [
    '/portal',
    `/portal/quotes?business=${tenant.businessId}`,
    `/portal/members?business=${tenant.businessId}`,
    `/portal/branding?business=${tenant.businessId}`,
    '/portal/books',
    `/portal/books/${tenant.bookId}`,
    '/portal/api-keys',
    '/portal/webhooks',
    '/portal/request-logs',
    `/portal/traces/${quote.data.quoteIntent.id}`,
  ];
  for (const path of pages) {
    await page.goto(`${appUrl()}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${path} is ${width} px wide at 390`).toBeLessThanOrEqual(390);
  }
  await screenshot(page, 'phone-trace');
});
