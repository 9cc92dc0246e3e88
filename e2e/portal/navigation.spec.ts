import { expect, test, type Page } from '@playwright/test';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { settle, signIn } from '../support/portal';

// A page is prefetched when the person reaches for its link (pointer, finger, keyboard), not
// because its link is in view: a page view used to send 25–40 prefetches (IntentLink).

/** The pages prefetched (Next's `next-router-prefetch` requests) and full page loads, from now on. */
function watch(page: Page) {
  const prefetched: string[] = [];
  const documents: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.headers()['next-router-prefetch']) prefetched.push(url.pathname);
    else if (request.resourceType() === 'document') documents.push(url.pathname);
  });
  return { prefetched, documents };
}

test('the portal prefetches the page a person points at or tabs to, and no other', async ({ page }) => {
  const tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: 'all', businessRole: 'owner' });
  const seen = watch(page);
  await signIn(page, admin, '/portal/quotes');
  await settle(page, 'Quotes');

  const nav = page.getByRole('navigation', { name: 'Portal' });
  await nav.getByRole('link', { name: 'Books' }).hover();
  await expect.poll(() => seen.prefetched).toContain('/portal/books');
  await nav.getByRole('link', { name: 'Webhooks' }).focus();
  await expect.poll(() => seen.prefetched).toContain('/portal/webhooks');

  await nav.getByRole('link', { name: 'Books' }).click();
  await settle(page, 'Books');
  // Of the dozen pages in the navigation, only the two reached for; the click stayed in the page.
  expect([...new Set(seen.prefetched)].sort()).toEqual(['/portal/books', '/portal/webhooks']);
  expect(seen.documents).toEqual(['/portal/quotes']);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('a tap on a menu link opens its page in place, and nothing else was fetched ahead', async ({ page }) => {
    const tenant = await createTenant();
    const editor = await createPerson(tenant, { businessRole: 'editor' });
    const seen = watch(page);
    await signIn(page, editor, '/portal/quotes');
    await settle(page, 'Quotes');

    const nav = page.getByRole('navigation', { name: 'Portal' });
    // A tap before the page has hydrated does nothing: tap until the menu says it is open.
    const menu = nav.getByRole('button', { name: /^(Menu|Close)$/ });
    await expect(async () => {
      if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.tap();
      await expect(menu).toHaveAttribute('aria-expanded', 'true', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await nav.getByRole('link', { name: 'Leads' }).tap();
    await settle(page, 'Leads');
    expect(seen.prefetched.filter((path) => path !== '/portal/leads')).toEqual([]);
    expect(seen.documents).toEqual(['/portal/quotes']);
  });
});
