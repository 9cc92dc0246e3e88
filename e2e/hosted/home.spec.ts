import { expect, test } from '@playwright/test';
import { appUrl, screenshot } from '../support/portal';

test('the root page says what the service is and leads to the portal and a readable API reference', async ({ page, request }) => {
  const prefetched: string[] = [];
  page.on('request', (r) => {
    if (r.headers()['next-router-prefetch']) prefetched.push(new URL(r.url()).pathname);
  });
  await page.goto(`${appUrl()}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Quote Pricing Service' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in to the portal' })).toHaveAttribute('href', '/portal');
  // What a search engine or a shared link shows under the title.
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /signed receipts/);
  await screenshot(page, 'home');

  // The API reference (its page and Swagger UI's 186 KB stylesheet) is fetched ahead once the
  // visitor reaches for its link, not with the page; nor is the portal. Before hydration a hover
  // does nothing: again until it does.
  const toReference = page.getByRole('link', { name: 'API reference' });
  await expect(async () => {
    await page.mouse.move(0, 0);
    await toReference.hover();
    expect(prefetched).toContain('/docs');
  }).toPass({ timeout: 30_000 });
  expect(prefetched.filter((path) => path !== '/docs')).toEqual([]);
  await toReference.click();
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  // Swagger UI, on the service's own document: the tags, then a route opened with its contract.
  const reference = page.getByTestId('api-reference');
  await reference.getByRole('link', { name: 'Books', exact: true }).click();
  await expect(reference.getByText('/v1/books/{bookId}/impact')).toBeVisible();
  await screenshot(page, 'api-reference');

  // The tab has an icon, and asking for the classic one is not a 404.
  const favicon = await request.get(`${appUrl()}/favicon.ico`);
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toBe('image/x-icon');
});
