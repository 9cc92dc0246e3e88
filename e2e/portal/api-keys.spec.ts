import { expect, test, type Page } from '@playwright/test';
import { createPerson, createTenant, type Tenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn, takeOneTimeSecret } from '../support/portal';

const quoteWith = (tenant: Tenant, secret: string) =>
  fetch(`${appUrl()}/v1/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      businessId: tenant.businessId,
      bookId: tenant.bookId,
      offeringId: 'window_cleaning',
      factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
    }),
  }).then((r) => r.status);

const takeSecret = (page: Page, heading: RegExp, screenshotName: string) =>
  takeOneTimeSecret(page, heading, 'Secret key', screenshotName);

const masked = (secret: string) => `${secret.slice(0, 'sk_live_'.length + 4)}…${secret.slice(-4)}`;

test('creates a Live key, rotates it without grace and revokes it; the API agrees at every step', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl() });
  const tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: 'all' });

  await signIn(page, admin, `/portal/api-keys?project=${tenant.projectId}`);
  await expect(page.getByRole('row', { name: /^live key sk_live_/ })).toBeVisible();
  // Cancelling gives the keyboard back to the keys heading, not to nowhere.
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('#keys-heading')).toBeFocused();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByLabel('Name')).toBeFocused();
  // Every scope a Test key can use, events:listen and events:trigger (Test only) included.
  await expect(page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox', { checked: true })).toHaveCount(8);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Give the key a name that says what uses it.')).toBeVisible();
  await page.getByLabel('Name').fill('Checkout server');
  await expect(page.getByText('Give the key a name that says what uses it.')).toHaveCount(0);
  await page.getByRole('radio', { name: /^Live/ }).check();
  // A Live key is not offered the Test-only scopes.
  await expect(page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox')).toHaveCount(6);
  await expect(page.getByRole('group', { name: 'Scopes' }).getByText('events:listen')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Scopes' }).getByText('events:trigger')).toHaveCount(0);
  await screenshot(page, 'api-keys-create-form');
  await page.getByRole('button', { name: 'Create key' }).click();

  const original = await takeSecret(page, /Your new Live key “Checkout server”/, 'api-keys-secret-created');
  expect(original).toMatch(/^sk_live_/);
  expect(await quoteWith(tenant, original)).toBe(201);

  await page.getByRole('button', { name: `Rotate Checkout server (${masked(original)})` }).click();
  const grace = page.getByLabel('Keep the old key working for');
  await expect(grace).toBeFocused();
  await expect(grace).toHaveValue(String(24 * 60));
  await grace.selectOption('0');
  await screenshot(page, 'api-keys-rotate');
  await page.getByRole('button', { name: 'Rotate key' }).click();
  await expect(page.getByText('The old key has stopped working.')).toBeVisible();
  const successor = await takeSecret(page, /The new Live key replacing “Checkout server”/, 'api-keys-secret-rotated');
  expect(successor).not.toBe(original);
  expect(await quoteWith(tenant, original)).toBe(401);
  expect(await quoteWith(tenant, successor)).toBe(201);
  // The revoked key is out of the way until asked for; then each names the other.
  const oldRow = page.getByRole('row', { name: `Checkout server ${masked(original)}` });
  await expect(oldRow).toHaveCount(0);
  const newRow = page.getByRole('row', { name: `Checkout server ${masked(successor)}` });
  await expect(newRow).toContainText(`Replaces Checkout server (…${original.slice(-4)})`);
  await page.getByRole('checkbox', { name: /^Show revoked keys/ }).check();
  await expect(oldRow).toContainText('Revoked');
  await expect(oldRow).toContainText(`Replaced by Checkout server (…${successor.slice(-4)})`);
  await expect(page.getByRole('table', { name: 'Live keys' }).getByRole('row', { name: /Checkout server/ })).toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Test keys' }).getByRole('row', { name: /Checkout server/ })).toHaveCount(0);

  await page.getByRole('button', { name: `Revoke Checkout server (${masked(successor)})` }).click();
  await expect(page.getByText(`Revoke “Checkout server” (${masked(successor).replace('…', '…')}) now? Requests with it fail at once.`)).toBeVisible();
  await page.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(newRow).toContainText('Revoked');
  expect(await quoteWith(tenant, successor)).toBe(401);
  await screenshot(page, 'api-keys-list');
});

test('without api_keys:create the keys are listed read-only', async ({ page }) => {
  const tenant = await createTenant();
  const reader = await createPerson(tenant, { permissions: ['logs:read'] });

  await signIn(page, reader, '/portal/api-keys');
  await expect(page.getByRole('row', { name: /^test key sk_test_/ })).toBeVisible();
  // the tenant's keys carry every scope; the Scopes column says so
  await expect(page.getByRole('row', { name: /^test key sk_test_/ }).getByRole('cell').nth(3)).toHaveText('All');
  await expect(page.getByText('creating, rotating and revoking them is for workspace members allowed to manage keys.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Rotate|Revoke)/ })).toHaveCount(0);
  await screenshot(page, 'api-keys-read-only');
});
