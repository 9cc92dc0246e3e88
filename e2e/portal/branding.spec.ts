import { expect, test } from '@playwright/test';
import { createPerson, createTenant, testDb } from '../../lib/testing/factories';
import { appUrl, expectFitsWidth, screenshot, signIn } from '../support/portal';

const LOGO_URL = 'https://cdn.example.test/sparkle-logo.svg';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="28" fill="#0f766e"/><path d="M20 34l8 8 16-18" stroke="#fff" stroke-width="6" fill="none"/></svg>';

test('a workspace manager saves branding; field errors show beside their fields', async ({ page }) => {
  // No network here: the logo host is answered by the test.
  await page.route(LOGO_URL, (route) => route.fulfill({ contentType: 'image/svg+xml', body: LOGO_SVG }));
  const tenant = await createTenant();
  const manager = await createPerson(tenant, { permissions: ['businesses:manage'] });

  await signIn(page, manager, `/portal/branding?business=${tenant.businessId}`);
  await page.getByLabel('Display name').fill('Sparkle Windows');
  await page.getByLabel('Logo URL').fill('http://cdn.example.test/sparkle-logo.svg');
  await page.getByLabel('Primary colour picker').fill('#0f766e');
  await expect(page.getByLabel('Primary colour', { exact: true })).toHaveValue('#0f766e');
  await page.getByLabel('Accent colour', { exact: true }).fill('#f97');
  await page.getByRole('button', { name: 'Save branding' }).click();

  await expect(page.getByText('Enter an address that starts with https://, or leave it empty.')).toBeVisible();
  await expect(page.getByLabel('Logo URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Accent colour', { exact: true })).toHaveAccessibleDescription(/six hex digits/);
  await expect(page.getByLabel('Primary colour', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'branding-field-errors');

  await page.getByLabel('Logo URL').fill(LOGO_URL);
  await page.getByLabel('Accent colour', { exact: true }).fill('#f97316');
  const header = page.getByTestId('preview-header');
  await expect(header).toContainText('Sparkle Windows');
  await expect(header).toHaveCSS('background-color', 'rgb(15, 118, 110)');
  await expect(header.locator('img')).toHaveJSProperty('naturalWidth', 64);
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('Saved. Your hosted quote page shows the new branding from now on.')).toBeVisible();
  await screenshot(page, 'branding-saved');

  const listed = await fetch(`${appUrl()}/v1/businesses`, { headers: { authorization: `Bearer ${manager.token}` } });
  const business = (await listed.json()).data.businesses.find((b: { id: string }) => b.id === tenant.businessId);
  expect(business.branding).toEqual({
    displayName: 'Sparkle Windows',
    logoUrl: LOGO_URL,
    primaryColor: '#0f766e',
    accentColor: '#f97316',
    nextStep: null,
    acceptanceConsent: 'I agree that Sparkle Windows may contact me about this quote.',
    acceptanceConsentIsDefault: true,
  });

  await page.reload();
  await expect(page.getByLabel('Display name')).toHaveValue('Sparkle Windows');
  await expect(page.getByLabel('Accent colour', { exact: true })).toHaveValue('#f97316');

  // A next step under the price: the preview shows the button; the hosted receipt will too.
  await page.getByLabel('Button under the price').fill('Book this visit');
  await page.getByLabel('Where the button goes').fill('http://book.example.test');
  await expect(page.getByTestId('preview-next-step')).toHaveText('Book this visit');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByLabel('Where the button goes')).toHaveAccessibleDescription(/starts with https:\/\//);
  await page.getByLabel('Where the button goes').fill('https://book.example.test');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('Saved. Your hosted quote page shows the new branding from now on.')).toBeVisible();
  const again = await fetch(`${appUrl()}/v1/businesses`, { headers: { authorization: `Bearer ${manager.token}` } });
  const saved = (await again.json()).data.businesses.find((b: { id: string }) => b.id === tenant.businessId);
  expect(saved.branding.nextStep).toEqual({ label: 'Book this visit', url: 'https://book.example.test' });

  // The sentence customers agree to when they accept a quote: empty shows the default, greyed out.
  const consent = page.getByLabel('What customers agree to when they accept a quote');
  await expect(consent).toHaveAttribute('placeholder', 'I agree that Sparkle Windows may contact me about this quote.');
  await consent.fill('I agree that Sparkle Windows may phone me about this quote and my windows.');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('Saved. Your hosted quote page shows the new branding from now on.')).toBeVisible();
  const withConsent = (await (await fetch(`${appUrl()}/v1/businesses`, { headers: { authorization: `Bearer ${manager.token}` } })).json()).data.businesses.find(
    (b: { id: string }) => b.id === tenant.businessId,
  );
  expect(withConsent.branding).toMatchObject({ acceptanceConsent: 'I agree that Sparkle Windows may phone me about this quote and my windows.', acceptanceConsentIsDefault: false });

  // The publishing safeguard, on the same page: refused values are explained, saved ones stay.
  const safeguard = page.getByRole('form', { name: 'Publishing safeguard' });
  await expect(safeguard.getByLabel('Ask when more than (% of quotes)')).toHaveValue('10');
  await safeguard.getByLabel('change by more than (%)').fill('0');
  await safeguard.getByRole('button', { name: 'Save safeguard' }).click();
  await expect(safeguard.getByText('A whole number from 1 to 1000.')).toBeVisible();
  await safeguard.getByLabel('change by more than (%)').fill('15');
  await safeguard.getByLabel('Ask when more than (% of quotes)').fill('25');
  await safeguard.getByRole('button', { name: 'Save safeguard' }).click();
  await expect(safeguard.getByText('Saved. The next publication to Live is checked against it.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Publishing safeguard' }).getByLabel('change by more than (%)')).toHaveValue('15');
  await screenshot(page, 'branding-publishing-safeguard');
});

for (const role of ['editor', 'viewer'] as const) {
  test(`a business ${role} sees branding locked, and is told to ask the owner of the self-run business (spec 4.2)`, async ({ page }) => {
    const tenant = await createTenant();
    const owner = await createPerson(tenant, { businessRole: 'owner' });
    const admin = await createPerson(tenant, { permissions: 'all' });
    const person = await createPerson(tenant, { businessRole: role });

    await signIn(page, person, '/portal/branding');
    const notice = page.locator('#branding-locked');
    await expect(notice).toHaveText(
      `You can look but not change: the branding of a self-run business is set by its owner, or by workspace members allowed to manage businesses. Ask Test Person (${owner.email}), the owner of this business, if you need it.`,
    );
    await expect(notice).not.toContainText(admin.email);
    await expect(page.getByLabel('Display name')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save branding' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save safeguard' })).toBeDisabled();
    await expect(page.getByRole('form', { name: 'Publishing safeguard' })).toContainText(`Ask Test Person (${owner.email}), the owner of this business`);
    await screenshot(page, `branding-read-only-${role}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsWidth(page, 390);
    await screenshot(page, `branding-read-only-${role}-390`);
  });
}

test('the owner of a business its workspace runs is told to ask the workspace admins, who set its branding', async ({ page }) => {
  const tenant = await createTenant();
  await testDb().connection.updateMany({ where: { businessId: tenant.businessId }, data: { kind: 'managed' } });
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  const admin = await createPerson(tenant, { permissions: 'all' });

  await signIn(page, owner, '/portal/branding');
  await expect(page.locator('#branding-locked')).toHaveText(
    `You can look but not change: the branding of a business that its workspace runs for it is set by workspace members allowed to manage businesses. Ask Test Person (${admin.email}), a workspace admin, if you need it.`,
  );
  await expect(page.getByRole('button', { name: 'Save branding' })).toBeDisabled();
  await screenshot(page, 'branding-read-only-managed-owner-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'branding-read-only-managed-owner-390');
});

test('the owner of a self-run business and a workspace admin can change branding: no notice', async ({ page }) => {
  const tenant = await createTenant();
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  const admin = await createPerson(tenant, { permissions: 'all' });
  for (const [who, person] of [
    ['owner', owner],
    ['workspaceAdmin', admin],
  ] as const) {
    await page.context().clearCookies();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, person, `/portal/branding?business=${tenant.businessId}`);
    await expect(page.getByLabel('Display name')).toBeEnabled();
    await expect(page.getByText('You can look but not change')).toHaveCount(0);
    await screenshot(page, `branding-${who}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsWidth(page, 390);
    await screenshot(page, `branding-${who}-390`);
  }
});
