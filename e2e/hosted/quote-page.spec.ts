import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { createTenant, testDb } from '../../lib/testing/factories';
import { appUrl, screenshot } from '../support/portal';

const PRICE = /\$\s?\d/;

// A logo on a host the browser cannot reach; the test serves it.
const LOGO_URL = 'https://logo.example.test/sparkle.svg';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#fbbf24"/><path d="M20 8l3 9h9l-7 5 3 9-8-6-8 6 3-9-7-5h9z" fill="#fff"/></svg>';

async function brand(businessId: string, branding: { displayName: string; primaryColor: string; accentColor: string; logoUrl?: string }) {
  await testDb().business.update({ where: { id: businessId }, data: branding });
}

async function answerWindowCleaning(page: Page, answers: { storeys?: string } = { storeys: 'Two storeys' }) {
  await page.getByRole('radio', { name: /Window cleaning/ }).check();
  await page.getByLabel('Home size').selectOption({ label: '3 to 4 bedrooms' });
  if (answers.storeys) await page.getByLabel('Storeys').selectOption({ label: answers.storeys });
  await page.getByLabel('How often').selectOption({ label: 'Every month' });
  await page.getByLabel('Access').selectOption({ label: 'Difficult: conservatory, steep slope or no side access' });
}

test('shows the business’s branding, and a change applies on the next request', async ({ page }) => {
  const tenant = await createTenant();
  await brand(tenant.businessId, {
    displayName: 'Sparkle & Shine Windows',
    primaryColor: '#0f766e',
    accentColor: '#f59e0b',
    logoUrl: LOGO_URL,
  });
  await page.route(LOGO_URL, (route) => route.fulfill({ contentType: 'image/svg+xml', body: LOGO_SVG }));

  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  const header = page.getByRole('banner');
  await expect(header).toHaveText('Sparkle & Shine Windows');
  await expect(header).toHaveCSS('background-color', 'rgb(15, 118, 110)');
  await expect(header).toHaveCSS('color', 'rgb(255, 255, 255)');
  await expect(header).toHaveCSS('border-bottom-color', 'rgb(245, 158, 11)');
  await expect(header.locator('img')).toHaveAttribute('src', LOGO_URL);
  await expect(page).toHaveTitle('Get a price — Sparkle & Shine Windows');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Answer a few questions and get a price from Sparkle & Shine Windows at once, with how it is made up.');
  await expect(page.getByRole('button', { name: 'Get my price' })).toHaveCSS('background-color', 'rgb(15, 118, 110)');
  await expect(page.locator('body')).not.toContainText(PRICE);
  await screenshot(page, 'hosted-quote-empty');

  // A pale primary colour gets dark text.
  await brand(tenant.businessId, { displayName: 'Sparkle Windows', primaryColor: '#fde047', accentColor: '#7c3aed' });
  await page.reload();
  await expect(header).toHaveText('Sparkle Windows');
  await expect(header).toHaveCSS('background-color', 'rgb(253, 224, 71)');
  await expect(header).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(page.getByRole('button', { name: 'Get my price' })).toHaveCSS('color', 'rgb(0, 0, 0)');
  await page.getByRole('radio', { name: /Gutter cleaning/ }).focus();
  await page.keyboard.press('Space');
  await screenshot(page, 'hosted-quote-pale-brand');
});

test('prices window cleaning only after submission, and shows the receipt', async ({ page }) => {
  const tenant = await createTenant();
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await answerWindowCleaning(page);
  await expect(page.getByLabel('How often')).toHaveAccessibleName('How often (optional)');
  await expect(page.getByLabel('Site type')).toHaveAccessibleName('Site type (optional)');
  await expect(page.getByLabel('Storeys')).toHaveAccessibleName('Storeys');
  // "I'm not sure" only where the book prices an unknown answer with an assumption
  await expect(page.getByLabel('Access').getByRole('option', { name: "I'm not sure" })).toHaveCount(1);
  await expect(page.getByLabel('How often').getByRole('option', { name: "I'm not sure" })).toHaveCount(1);
  await expect(page.getByLabel('Storeys').getByRole('option', { name: "I'm not sure" })).toHaveCount(0);
  await expect(page.getByLabel('Home size').getByRole('option', { name: "I'm not sure" })).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(PRICE);
  await screenshot(page, 'hosted-quote-answered');

  const posted = page.waitForRequest('**/v1/public_quotes');
  await page.getByRole('button', { name: 'Get my price' }).click();
  const body = (await posted).postDataJSON();
  expect(body).toEqual({
    businessId: tenant.businessId,
    offeringId: 'window_cleaning',
    factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
    idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
  });

  // 12000 +25% larger home = 15000, +15% difficult access = 17250, −10% monthly = 15525
  await expect(page.getByRole('heading', { name: 'Your price for window cleaning' })).toBeFocused();
  await expect(page.getByTestId('receipt-total')).toHaveText('$155.25');
  await expect(page.getByTestId('receipt-deposit')).toHaveText('$38.81');
  await expect(page.getByTestId('receipt-balance')).toHaveText('$116.44');
  await expect(page.getByText('Deposit due now (25%)')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Conditions' })).toContainText('Prices include all materials and VAT.');
  await expect(page.getByRole('table', { name: 'Price waterfall' })).toHaveCount(0);
  const stored = await testDb().quoteIntent.findMany({ where: { businessId: tenant.businessId } });
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ status: 'succeeded', source: 'hosted', idempotencyKey: body.idempotencyKey });
  await expect(page.getByTestId('quote-reference')).toHaveText(stored[0].id);
  await screenshot(page, 'hosted-quote-receipt');

  await page.getByRole('button', { name: 'Start again' }).click();
  await expect(page.getByRole('radio', { name: /Window cleaning/ })).not.toBeChecked();
  await expect(page.locator('body')).not.toContainText(PRICE);
});

test('a customer comes back to their price by its link; "not sure" says what was assumed; the next step sits under the price', async ({ page, context }) => {
  const tenant = await createTenant();
  await testDb().business.update({
    where: { id: tenant.businessId },
    data: { nextStepLabel: 'Book this visit', nextStepUrl: 'https://book.example.test/visit' },
  });
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await answerWindowCleaning(page);
  await page.getByLabel('Access').selectOption({ label: "I'm not sure" });
  await page.getByRole('button', { name: 'Get my price' }).click();
  // 12000 +25% larger home = 15000, access assumed easy, −10% monthly = 13500
  await expect(page.getByTestId('receipt-total')).toHaveText('$135.00');
  const id = await page.getByTestId('quote-reference').textContent();
  await expect(page).toHaveURL(`${appUrl()}/q/${tenant.businessId}?quote=${id}`);
  const told = page.locator('.answer-list');
  await expect(told).toContainText('Not sure — we assumed “Easy: clear paths, no obstacles”');
  // The next step learns which quote the customer comes from.
  await expect(page.getByRole('link', { name: 'Book this visit' })).toHaveAttribute('href', `https://book.example.test/visit?quote=${id}`);
  await expect(page.getByLabel('Come back to this price any time with this link')).toHaveValue(`${appUrl()}/q/${tenant.businessId}?quote=${id}`);
  await screenshot(page, 'hosted-quote-come-back');

  // The link, in a new tab or after a reload, shows the same receipt without quoting again.
  await page.reload();
  await expect(page.getByTestId('receipt-total')).toHaveText('$135.00');
  await expect(told).toContainText('Not sure — we assumed');
  const other = await context.newPage();
  await other.goto(`${appUrl()}/q/${tenant.businessId}?quote=${id}`);
  await expect(other.getByTestId('quote-reference')).toHaveText(id!);
  expect(await testDb().quoteIntent.count({ where: { businessId: tenant.businessId } })).toBe(1);

  // Starting again leaves the receipt's address; a link that names nothing says so, with the form below.
  await page.getByRole('button', { name: 'Start again' }).click();
  await expect(page).toHaveURL(`${appUrl()}/q/${tenant.businessId}`);
  await other.goto(`${appUrl()}/q/${tenant.businessId}?quote=${randomUUID()}`);
  await expect(other.getByRole('status').filter({ hasText: "That quote link doesn't match a price" })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Get my price' })).toBeVisible();
});

test('asks for a missing answer, focuses it and keeps the others', async ({ page }) => {
  const tenant = await createTenant();
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await answerWindowCleaning(page, { storeys: undefined });
  await page.getByRole('button', { name: 'Get my price' }).click();

  const storeys = page.getByLabel('Storeys');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Please answer “Storeys” so that we can work out your price.');
  await expect(storeys).toBeFocused();
  await expect(storeys).toHaveAttribute('aria-invalid', 'true');
  await expect(storeys).toHaveAccessibleDescription('Please answer this so we can work out your price.');
  await expect(page.getByLabel('Home size')).toHaveValue('medium');
  await expect(page.getByLabel('Access')).toHaveValue('difficult');
  await expect(page.locator('body')).not.toContainText(PRICE);
  await screenshot(page, 'hosted-quote-requires-input');

  await storeys.selectOption({ label: 'One storey' });
  await expect(storeys).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: 'Get my price' }).click();
  await expect(page.getByTestId('receipt-total')).toHaveText('$155.25');
});

test('works with the keyboard alone, starting from an unchosen service', async ({ page }) => {
  const tenant = await createTenant();
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await page.getByRole('button', { name: 'Get my price' }).focus();
  await page.keyboard.press('Enter');

  const first = page.getByRole('radio', { name: /Window cleaning/ });
  await expect(first).toBeFocused();
  await expect(page.getByText('Choose a service to get your price.')).toBeVisible();
  await page.keyboard.press('Space');
  await expect(first).toBeChecked();
  await expect(page.getByText('Choose a service to get your price.')).toHaveCount(0);

  // Solar panel cleaning, two radios on; then its factors by keyboard.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /Solar panel cleaning/ })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Number of panels')).toBeFocused();
  await page.keyboard.press('ArrowDown'); // Up to 12 panels
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Storeys')).toBeFocused();
  await page.keyboard.press('ArrowDown'); // One storey
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Get my price' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('receipt-total')).toHaveText('$150.00');
});

test('a retry after a lost response replays the same quote', async ({ page }) => {
  const tenant = await createTenant();
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await answerWindowCleaning(page);

  // The service creates the quote, but the answer never reaches the browser.
  const keys: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/public_quotes', async (route) => {
    keys.push(route.request().postDataJSON().idempotencyKey);
    await released;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await page.getByRole('button', { name: 'Get my price' }).click();
  const waiting = page.getByRole('button', { name: 'Calculating your price…' });
  await expect(waiting).toBeDisabled();
  await waiting.dblclick({ force: true }); // an impatient double click sends nothing more
  await screenshot(page, 'hosted-quote-calculating');
  release();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText("We couldn't reach the quote service. Check your connection and try again.");

  expect(keys).toHaveLength(1);
  await page.unroute('**/v1/public_quotes');
  const replay = page.waitForResponse('**/v1/public_quotes');
  await page.getByRole('button', { name: 'Get my price' }).click();
  const response = await replay;
  expect(response.headers()['idempotent-replayed']).toBe('true');
  expect((await response.request().postDataJSON()).idempotencyKey).toBe(keys[0]);
  await expect(page.getByTestId('receipt-total')).toHaveText('$155.25');
  expect(await testDb().quoteIntent.count({ where: { businessId: tenant.businessId } })).toBe(1);

  // Changed answers are a new attempt with a new key.
  await page.getByRole('button', { name: 'Start again' }).click();
  await answerWindowCleaning(page, { storeys: 'Three storeys' });
  const next = page.waitForRequest('**/v1/public_quotes');
  await page.getByRole('button', { name: 'Get my price' }).click();
  expect((await next).postDataJSON().idempotencyKey).not.toBe(keys[0]);
  await expect(page.getByTestId('receipt-total')).toHaveText('$201.82');
});

test('a combination the book cannot price gets a plain message, not a price', async ({ page }) => {
  // The largest base price plus a surcharge runs past the largest amount: a `failed` receipt.
  const tenant = await createTenant({
    artifact: {
      formatVersion: 1,
      currency: 'USD',
      offerings: [{ id: 'palace', label: 'Palace windows', basePriceMinor: 1_000_000_000_000, factorIds: ['wings'] }],
      factors: [{ id: 'wings', label: 'Wings', options: [{ id: 'east', label: 'East wing' }, { id: 'all', label: 'Every wing' }] }],
      rules: [
        {
          id: 'all_wings',
          phase: 'conditionalModifier',
          label: 'Every wing',
          when: [{ factorId: 'wings', optionIds: ['all'] }],
          adjustment: { type: 'fixed', amountMinor: 1 },
        },
      ],
    },
  });
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await page.getByRole('radio', { name: 'Palace windows' }).check();
  await page.getByLabel('Wings').selectOption({ label: 'Every wing' });
  await page.getByRole('button', { name: 'Get my price' }).click();

  const message = page.getByRole('main').getByRole('alert');
  await expect(message).toContainText("We couldn't price this combination online. Try different answers, or contact Business");
  await expect(page.locator('body')).not.toContainText(PRICE);
  const [stored] = await testDb().quoteIntent.findMany({ where: { businessId: tenant.businessId } });
  expect(stored.status).toBe('failed');
  await expect(message).toContainText(stored.id);
  await screenshot(page, 'hosted-quote-unpriced');

  await page.getByLabel('Wings').selectOption({ label: 'East wing' });
  await expect(message).toHaveCount(0);
});

test('a business with nothing published Live gets the unavailable page with 404', async ({ page }) => {
  const testOnly = await createTenant({ publishTo: ['test'] });
  for (const businessId of [testOnly.businessId, randomUUID(), 'not-a-uuid']) {
    const response = await page.goto(`${appUrl()}/q/${businessId}`);
    expect(response?.status(), businessId).toBe(404);
    await expect(page.getByRole('heading', { name: 'Quotes are not available for this business right now' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Get my price' })).toHaveCount(0);
  }
  await screenshot(page, 'hosted-quote-unavailable');
});

test('rate limited: a friendly message and a countdown on the button', async ({ page }) => {
  const tenant = await createTenant();
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await answerWindowCleaning(page);

  const create = () =>
    fetch(`${appUrl()}/v1/public_quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: tenant.businessId, offeringId: '' }),
    }).then((r) => r.status);
  for (let batch = 0; batch < 6; batch++) {
    const statuses = await Promise.all(Array.from({ length: 20 }, create));
    expect(statuses.every((s) => s === 201)).toBe(true);
  }
  expect(await create()).toBe(429);

  await page.getByRole('button', { name: 'Get my price' }).click();
  const message = page.getByRole('main').getByRole('status');
  await expect(message).toHaveText(/^Lots of people are asking for quotes right now — please try again in \d+ seconds\.$/);
  const button = page.getByRole('button', { name: /^Try again in \d+s$/ });
  await expect(button).toBeDisabled();
  const before = Number((await button.textContent())!.match(/\d+/)![0]);
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThanOrEqual(60);
  await expect(button).not.toHaveText(`Try again in ${before}s`);
  await screenshot(page, 'hosted-quote-rate-limited');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('fits the screen, form and receipt', async ({ page }) => {
    const tenant = await createTenant();
    await brand(tenant.businessId, { displayName: 'Harbour Home Services', primaryColor: '#7c3aed', accentColor: '#fbbf24' });
    await page.goto(`${appUrl()}/q/${tenant.businessId}`);
    await answerWindowCleaning(page);
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await screenshot(page, 'hosted-quote-mobile-form');

    await page.getByRole('button', { name: 'Get my price' }).tap();
    await expect(page.getByTestId('receipt-total')).toHaveText('$155.25');
    expect(await fits()).toBe(true);
    await screenshot(page, 'hosted-quote-mobile-receipt');
  });
});
