import { expect, test } from '@playwright/test';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { screenshot, signIn } from '../support/portal';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone the navigation is a menu that folds away once a page is chosen', async ({ page }) => {
  const tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: 'all', businessRole: 'owner' });
  await signIn(page, admin);

  // The links are folded away until the menu is opened; choosing one closes it again.
  const nav = page.getByRole('navigation', { name: 'Portal' });
  await expect(nav.getByRole('link', { name: 'Quotes' })).toBeHidden();
  // A click before the page has hydrated does nothing: press until the menu says it is open.
  const menu = nav.getByRole('button', { name: /^(Menu|Close)$/ });
  await expect(async () => {
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await screenshot(page, 'phone-menu', { fullPage: false });
  await nav.getByRole('link', { name: 'Quotes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Quotes' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Quotes' })).toBeHidden();

  // That every page fits the phone, its lists as cards, is lists-in-sight.spec.ts's crawl as each role.
  await screenshot(page, 'phone-quotes');
});

test('on a phone the book editor’s live preview is one tap away, and so is the way back', async ({ page }) => {
  const tenant = await createTenant();
  const editor = await createPerson(tenant, { permissions: ['books:edit'] });
  await signIn(page, editor, `/portal/books/${tenant.bookId}`);
  await expect(page.getByTestId('toolbar-price')).toContainText('Example:');
  const preview = page.getByTestId('live-preview');
  await expect(preview).not.toBeInViewport(); // below the whole editor
  await page.getByRole('link', { name: 'Preview ↓' }).click();
  await expect(preview).toBeInViewport();
  await expect(preview.getByTestId('preview-total')).toBeVisible();
  await screenshot(page, 'phone-book-preview', { fullPage: false });
  await page.getByRole('link', { name: '↑ Back to editing' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Draft' })).toBeInViewport();
});
