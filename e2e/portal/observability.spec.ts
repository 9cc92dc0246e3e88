import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { createApiKey } from '../../lib/keys/create-api-key';
import { createPerson, createTenant, testContext, testDb, type Tenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn } from '../support/portal';

const windowCleaning = {
  offeringId: 'window_cleaning',
  factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
};

async function postQuote(key: string, body: unknown) {
  const res = await fetch(`${appUrl()}/v1/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, requestId: res.headers.get('x-request-id')!, body: await res.json() };
}

/** A key of the tenant's that has since been revoked: its requests answer 401. */
async function revokedKey(tenant: Tenant) {
  const { apiKey, secret } = await createApiKey(testContext(testDb()), { projectId: tenant.projectId, environment: 'test', name: 'retired key' });
  await testDb().apiKey.update({ where: { id: apiKey.id }, data: { status: 'revoked', revokedAt: new Date() } });
  return secret;
}

/** A tenant and a signed-in person who may read its logs. */
async function signInLogReader(page: Page) {
  const tenant = await createTenant();
  const reader = await createPerson(tenant, { permissions: ['logs:read'] });
  await signIn(page, reader, '/portal/request-logs');
  return tenant;
}

const results = (page: Page) => page.getByRole('table', { name: 'Requests' });
const resultRows = (page: Page) => results(page).locator('tbody tr');
/** A request's row: ids show short, the whole id is the code's title (and what Copy copies). */
const rowOf = (page: Page, requestId: string) => resultRows(page).filter({ has: page.locator(`code[title="${requestId}"]`) });

/** The log is written in batches every 50 ms: search again until the expected rows are there. */
async function searchUntil(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.getByRole('button', { name: 'Search' }).click();
    await check();
  }).toPass({ timeout: 30_000 });
}

test('finds failed requests and a quote request, traces the quote, and follows the way back', async ({ page }) => {
  const tenant = await signInLogReader(page);
  const quoted = await postQuote(tenant.keys.test, { businessId: tenant.businessId, bookId: tenant.bookId, ...windowCleaning });
  expect(quoted.status).toBe(201);
  const invalid = await postQuote(tenant.keys.test, { businessId: tenant.businessId, bookId: tenant.bookId });
  expect(invalid.status).toBe(422);
  const refused = await postQuote(await revokedKey(tenant), { businessId: tenant.businessId, bookId: tenant.bookId, ...windowCleaning });
  expect(refused.status).toBe(401);

  // The failures: status class 4xx, submitted with Enter.
  await expect(page.getByRole('heading', { name: 'Request log' })).toBeVisible();
  await page.getByLabel('Status class').selectOption('4xx');
  await page.getByLabel('Path starts with').fill('/v1/quotes');
  await page.getByLabel('Path starts with').press('Enter');
  await expect(page).toHaveURL(/statusClass=4xx/);
  await searchUntil(page, async () => {
    await expect(rowOf(page, refused.requestId)).toContainText('401');
    await expect(rowOf(page, invalid.requestId)).toContainText('422');
  });
  await expect(resultRows(page)).toHaveCount(2);
  await expect(rowOf(page, invalid.requestId)).toContainText('invalid_quote_request');
  await expect(rowOf(page, refused.requestId)).toContainText('invalid_api_key');
  await expect(rowOf(page, invalid.requestId)).toContainText('Key test key');
  await screenshot(page, 'request-log-4xx');

  // The failing call's details: who sent what, and what it got back.
  await rowOf(page, invalid.requestId).getByRole('link', { name: /^Details of request/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Request' })).toBeVisible();
  const bodies = page.getByRole('region', { name: 'What was sent and answered' });
  await expect(bodies.getByLabel('Request body')).toContainText(`"bookId": "${tenant.bookId}"`);
  await expect(bodies.getByLabel('Error answer')).toContainText('"code": "invalid_quote_request"');
  await expect(page.getByRole('region', { name: 'Who and when' })).toContainText('Key test key');
  await screenshot(page, 'request-log-detail');
  await page.goBack();

  // The quote's request, by its id.
  await page.getByLabel('Status class').selectOption('');
  await page.getByLabel('Path starts with').fill('');
  await page.getByRole('textbox', { name: 'Request id' }).fill(quoted.requestId);
  await page.getByRole('textbox', { name: 'Request id' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`requestId=${quoted.requestId}`));
  await expect(resultRows(page)).toHaveCount(1);
  const quoteRow = resultRows(page).first();
  await expect(quoteRow).toContainText('POST /v1/quotes');
  await expect(quoteRow).toContainText('201');
  await expect(quoteRow).toContainText('Test');
  await screenshot(page, 'request-log-by-request-id');

  // The back button returns to the 4xx search, filters and all.
  await page.goBack();
  await expect(page.getByLabel('Status class')).toHaveValue('4xx');
  await expect(resultRows(page)).toHaveCount(2);
  await page.goForward();
  await expect(page.getByRole('textbox', { name: 'Request id' })).toHaveValue(quoted.requestId);

  // Its trace.
  await resultRows(page).first().getByRole('link', { name: 'Trace' }).click();
  const quoteId = quoted.body.data.quoteIntent.id as string;
  await expect(page).toHaveURL(new RegExp(`/portal/traces/${quoteId}$`));
  await expect(page.getByRole('heading', { name: 'Quote trace' })).toBeVisible();
  await expect(page.getByTestId('quote-status')).toHaveText('Priced');
  const total = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(quoted.body.data.quoteReceipt.computation.totalMinor / 100);
  await expect(page.getByTestId('receipt-total')).toHaveText(total);

  const waterfall = page.getByRole('table', { name: 'Price waterfall' });
  // The steps read in the book's labels (the pinned version's), not its ids.
  await expect(waterfall.getByRole('row', { name: /Larger home/ })).toContainText('applied');
  await expect(waterfall.getByRole('row', { name: /Larger home/ })).toContainText('Home size');
  await expect(waterfall.getByRole('row', { name: /Difficult access/ })).toContainText('applied');
  await expect(waterfall.getByRole('row', { name: /Three or more storeys/ })).toContainText('skipped');
  await expect(waterfall.getByRole('row', { name: /Commercial site rate/ })).toContainText('skipped');
  await expect(waterfall).not.toContainText('home_size');
  await expect(waterfall).not.toContainText('large_home');

  const inputs = page.getByRole('definition').filter({ hasText: 'window_cleaning' });
  await expect(inputs).toBeVisible();
  const version = await testDb().bookVersion.findUniqueOrThrow({ where: { id: tenant.versionId } });
  const book = page.getByRole('region', { name: 'Pinned book version' });
  await expect(book).toContainText('v1');
  await expect(book).toContainText(version.artifactHash);
  await expect(book.getByRole('link', { name: 'Open the book' })).toHaveAttribute('href', `/portal/books/${tenant.bookId}`);

  const request = page.getByRole('region', { name: 'Creating request' });
  await expect(request).toContainText('POST /v1/quotes');
  await expect(request).toContainText('201');
  await expect(request).toContainText(quoted.requestId);
  await expect(request).toContainText(tenant.keyIds.test);

  const events = page.getByRole('region', { name: 'Events and webhook deliveries' });
  await expect(events).toContainText('quote_intent.succeeded');
  await expect(events).toContainText('No webhook deliveries yet');
  await screenshot(page, 'quote-trace');

  // And back to the request log, filtered by the creating request.
  await request.getByRole('link', { name: 'Show in the request log' }).click();
  await expect(page).toHaveURL(new RegExp(`/portal/request-logs\\?requestId=${quoted.requestId}$`));
  await expect(page.getByRole('textbox', { name: 'Request id' })).toHaveValue(quoted.requestId);
  await expect(resultRows(page)).toHaveCount(1);
});

test('pages through the log with a small page size, and says when nothing matches', async ({ page }) => {
  const tenant = await signInLogReader(page);
  const made: string[] = [];
  for (let i = 0; i < 12; i++) made.push((await postQuote(tenant.keys.live, { businessId: tenant.businessId, bookId: tenant.bookId })).requestId);

  await page.getByLabel('Environment').selectOption('live');
  await page.getByLabel('Rows per page').selectOption('10');
  await searchUntil(page, async () => {
    await expect(resultRows(page).first().locator(`code[title="${made[11]}"]`)).toHaveCount(1);
  });
  await expect(resultRows(page)).toHaveCount(10);
  await expect(page.getByRole('link', { name: '← Newest' })).toHaveCount(0);
  await screenshot(page, 'request-log-page-1');

  await page.getByRole('link', { name: 'Older →' }).click();
  await expect(page).toHaveURL(/cursor=[^&]+/);
  await expect(resultRows(page)).toHaveCount(2);
  await expect(resultRows(page).nth(0).locator(`code[title="${made[1]}"]`)).toHaveCount(1);
  await expect(resultRows(page).nth(1).locator(`code[title="${made[0]}"]`)).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Older →' })).toHaveCount(0);
  await screenshot(page, 'request-log-page-2');

  await page.getByRole('link', { name: '← Newest' }).click();
  await expect(resultRows(page).first().locator(`code[title="${made[11]}"]`)).toHaveCount(1);
  await page.goBack();
  await expect(resultRows(page)).toHaveCount(2);

  await page.getByRole('textbox', { name: 'Request id' }).fill(randomUUID());
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No requests match these filters')).toBeVisible();
  await screenshot(page, 'request-log-empty');
});

test('traces a quote that needs more answers, and explains an id that matches nothing', async ({ page }) => {
  const tenant = await signInLogReader(page);
  const unpriced = await postQuote(tenant.keys.test, {
    businessId: tenant.businessId,
    bookId: tenant.bookId,
    ...windowCleaning,
    factors: { ...windowCleaning.factors, storeys: null },
  });
  expect(unpriced.body.data.quoteIntent.status).toBe('requires_input');

  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Quote traces' }).click();
  await page.getByLabel('Quote id or request id').fill(unpriced.requestId);
  await page.getByLabel('Quote id or request id').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/portal/traces/${unpriced.requestId}$`));
  await expect(page.getByTestId('quote-status')).toHaveText('Needs more answers');
  await expect(page.getByRole('region', { name: 'Receipt' })).toContainText('Not priced yet: the book needs an answer to Storeys (storeys)');
  await expect(page.getByRole('region', { name: 'Inputs' })).toContainText('Storeys storeysnot sure'); // labels, and the customer's own words for null
  await screenshot(page, 'quote-trace-requires-input');

  const nobody = randomUUID();
  await page.goto(`${appUrl()}/portal/traces/${nobody}`);
  await expect(page.getByRole('alert').filter({ hasText: nobody })).toContainText(`No quote matches ${nobody}`);
  await expect(page.getByLabel('Quote id or request id')).toHaveValue(nobody);
  await screenshot(page, 'quote-trace-not-found');
});

test("a workspace admin sets how long the log is kept, with the service's default a tick away; a reader only reads it", async ({ page, browser }) => {
  const tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: 'all' });
  await signIn(page, admin, '/portal/request-logs');
  await page.getByText('How long requests are kept').click();
  await expect(page.getByText("Requests are shown for 90 days (the service's default)")).toBeVisible();
  await page.getByRole('button', { name: 'Change' }).click();
  const days = page.getByLabel('Days to keep');
  await days.fill('0');
  await days.press('Enter');
  await expect(page.getByText('Enter a whole number of days from 1 to 3650.')).toBeVisible();
  await days.fill('14');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Requests are shown for 14 days (set for this workspace)')).toBeVisible();
  expect((await testDb().workspace.findUniqueOrThrow({ where: { id: tenant.workspaceId } })).requestLogRetentionDays).toBe(14);

  // A reader of the log sees the setting, and no way to change it.
  const reader = await createPerson(tenant, { permissions: ['logs:read'] });
  const readerPage = await (await browser.newContext()).newPage();
  await signIn(readerPage, reader, '/portal/request-logs');
  await readerPage.getByText('How long requests are kept').click();
  await expect(readerPage.getByText('Requests are shown for 14 days (set for this workspace)')).toBeVisible();
  await expect(readerPage.getByRole('button', { name: 'Change' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Change' }).click();
  await page.getByLabel("Use the service's default instead").check();
  await expect(page.getByLabel('Days to keep')).toBeDisabled();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText("Requests are shown for 90 days (the service's default)")).toBeVisible();
  expect((await testDb().workspace.findUniqueOrThrow({ where: { id: tenant.workspaceId } })).requestLogRetentionDays).toBeNull();
});
