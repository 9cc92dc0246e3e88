import { expect, test, type Page } from '@playwright/test';
import { createTenant, testDb } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { appUrl, screenshot } from '../support/portal';

// "Get my price" stores a quote only once the customer has answered what the form requires: what
// is missing is said in a sentence, each field says so beside it, and focus goes to the first.

/** Every POST /v1/public_quotes the page sends. */
function countPosts(page: Page) {
  const posts: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/public_quotes') posts.push(request.postDataJSON());
  });
  return posts;
}

for (const [width, height] of [
  [1280, 900],
  [390, 844],
] as const) {
  test(`asks for every required answer before it quotes, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const tenant = await createTenant();
    const posts = countPosts(page);
    const stored = () => testDb().quoteIntent.count({ where: { businessId: tenant.businessId } });
    await page.goto(`${appUrl()}/q/${tenant.businessId}`);
    const alert = page.getByRole('main').getByRole('alert');

    // Nothing chosen: the service first.
    await page.getByRole('button', { name: 'Get my price' }).click();
    await expect(alert).toHaveText('Choose the service you would like a price for.');
    await expect(page.getByRole('radio', { name: /Window cleaning/ })).toBeFocused();
    await expect(page.getByRole('group', { name: 'What would you like a price for?' })).toHaveAccessibleDescription('Choose a service to get your price.');
    await screenshot(page, `hosted-required-service-${width}`);

    // A service, no answers: its required questions, by their labels; the optional ones never.
    await page.getByRole('radio', { name: /Window cleaning/ }).check();
    await expect(alert).toHaveCount(0);
    await page.getByRole('button', { name: 'Get my price' }).click();
    await expect(alert).toHaveText('Please answer 3 more questions so that we can work out your price: “Home size”, “Storeys” and “Access”.');
    await expect(page.getByLabel('Home size')).toBeFocused();
    for (const label of ['Home size', 'Storeys', 'Access']) {
      await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByLabel(label)).toHaveAccessibleDescription('Please answer this so we can work out your price.');
    }
    await expect(page.getByLabel('How often')).not.toHaveAttribute('aria-invalid');
    await expectNoSeriousViolations(page);
    await screenshot(page, `hosted-required-questions-${width}`);
    if (width < 500) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Answering one takes it off the list; "not sure" answers Access (the book assumes an answer).
    await page.getByLabel('Home size').selectOption({ label: '3 to 4 bedrooms' });
    await page.getByLabel('Access').selectOption({ label: "I'm not sure" });
    await expect(alert).toHaveText('Please answer “Storeys” so that we can work out your price.');
    await page.getByRole('button', { name: 'Get my price' }).click();
    await expect(page.getByLabel('Storeys')).toBeFocused();

    // None of this reached the service, and nothing was stored.
    expect(posts).toHaveLength(0);
    expect(await stored()).toBe(0);

    await page.getByLabel('Storeys').selectOption({ label: 'Two storeys' });
    await page.getByRole('button', { name: 'Get my price' }).click();
    await expect(page.getByRole('heading', { name: 'Your price for window cleaning' })).toBeFocused();
    expect(posts).toHaveLength(1);
    expect(await stored()).toBe(1);
    expect((await testDb().quoteIntent.findFirstOrThrow({ where: { businessId: tenant.businessId } })).status).toBe('succeeded');
  });
}

test('the API keeps its contract: a quote without the required answers is stored as requires_input (spec 4.1)', async ({ request }) => {
  const tenant = await createTenant();
  const res = await request.post(`${appUrl()}/v1/public_quotes`, { data: { businessId: tenant.businessId, offeringId: '' } });
  expect(res.status()).toBe(201);
  const { data } = await res.json();
  expect(data.quoteReceipt).toMatchObject({ outcome: 'requires_input', missingInputs: ['offeringId'] });
});
