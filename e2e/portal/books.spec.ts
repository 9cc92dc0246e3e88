import { expect, test } from '@playwright/test';
import { createPerson, createTenant, testDb } from '../../lib/testing/factories';
import { appUrl, jsonEditor, jsonSelection, jsonText, replaceJsonText, screenshot, signIn } from '../support/portal';

const windowCleaning = {
  offeringId: 'window_cleaning',
  factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
};

async function postJson(path: string, body: unknown, key?: string) {
  const response = await fetch(`${appUrl()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

test('a publisher fixes a draft in place, previews it, versions it, compares and publishes it to Live', async ({ page }) => {
  const tenant = await createTenant();
  const person = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  await signIn(page, person, `/portal/books/${tenant.bookId}`);

  // Without a draft, the editor starts from version 1; the JSON view shows keys in reading order.
  await expect(page.getByText('this is a copy of version 1')).toBeVisible();
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  const editor = jsonEditor(page);
  await expect.poll(() => jsonText(page)).toMatch(/"window_cleaning"/);
  const v1Text = await jsonText(page);
  expect(v1Text.split('\n')[2]).toBe('  "currency": "USD",');

  // A JSON mistake is reported with its line and column before anything is sent.
  await replaceJsonText(page, v1Text.replace('"currency": "USD",', '"currency": "USD"'));
  const syntaxError = page.getByRole('button', { name: /^Line 3, column 20: this is not valid JSON — expected a comma or a closing \}/ });
  await expect(syntaxError).toBeVisible();

  // An invalid currency: the issue is listed by path as it is typed, and selects its place in the JSON.
  await replaceJsonText(page, v1Text.replace('"currency": "USD"', '"currency": "dollars"'));
  const problems = page.getByRole('list', { name: 'Problems in the draft' });
  const currencyIssue = problems.getByRole('button', { name: /^currency: must be an ISO 4217 currency code such as USD or EUR/ });
  await expect(currencyIssue).toBeVisible();
  await currencyIssue.click();
  await expect(editor).toBeFocused();
  await screenshot(page, 'books-draft-issue');
  expect(await jsonSelection(page)).toBe('"currency": "dollars"');
  await expect(page.getByRole('button', { name: 'Create version from draft' })).toBeDisabled();

  // Fixed, with a lower window-cleaning base price.
  const cheaper = v1Text.replace('"basePriceMinor": 12000', '"basePriceMinor": 9000');
  expect(cheaper).not.toBe(v1Text);
  await replaceJsonText(page, cheaper);
  // Unsaved edits: closing the tab asks first, and staying keeps them.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  expect(await jsonText(page)).toBe(cheaper);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('It has no problems, so it can become a version.')).toBeVisible();
  await expect(problems).toHaveCount(0);
  // Saved: a reload asks nothing (an unanswered question would hold the reload) and shows the draft.
  await page.reload();
  await expect(page.locator('input[data-path="offerings.0.basePriceMinor"]')).toHaveValue('90.00');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');

  // The live preview prices as answers change, no button: 9000 → +25% larger home → +15% difficult access → −10% monthly = 116.44
  const preview = page.getByTestId('live-preview');
  await preview.getByLabel('Offering', { exact: true }).selectOption('window_cleaning');
  await preview.getByLabel('Home size', { exact: true }).selectOption('medium');
  await preview.getByLabel('Storeys', { exact: true }).selectOption('2');
  await preview.getByLabel('How often', { exact: true }).selectOption('monthly');
  await preview.getByLabel('Access', { exact: true }).selectOption('difficult');
  const receipt = preview.getByTestId('preview-receipt');
  await expect(receipt.getByTestId('receipt-total')).toHaveText('$116.44');
  await receipt.getByText('How the price was worked out').click();
  // Steps are named as people know them: rule names and answers, not ids.
  const waterfall = receipt.getByRole('table', { name: 'Price waterfall' });
  await expect(waterfall).toContainText('Difficult access');
  await expect(waterfall).toContainText('Access is “Difficult: conservatory, steep slope or no side access”');
  await expect(waterfall).not.toContainText('difficult_access');
  await screenshot(page, 'books-preview');

  // A "not sure" answer without an assumption asks for it instead of guessing.
  await preview.getByLabel('Storeys', { exact: true }).selectOption({ label: 'Not sure' });
  await expect(preview.getByTestId('preview-missing')).toContainText('Storeys');
  await preview.getByLabel('Storeys', { exact: true }).selectOption('2');

  await page.getByRole('button', { name: 'Create version from draft' }).click();
  await expect(page.getByText('Version 2 created.')).toBeVisible();
  const history = page.getByRole('table', { name: 'Version history' });
  await expect(history.getByRole('row', { name: 'Version 2' })).toContainText(person.email);

  // What changed from v1 to v2 (the default pair): just the base price.
  const changes = page.getByRole('list', { name: 'Changes from v1 to v2' });
  await expect(changes).toContainText('Offering “Window cleaning”');
  await expect(changes).toContainText(/base price: \$120\.00 →.*\$90\.00/);
  await expect(changes.locator(':scope > li')).toHaveCount(1);

  // Publishing to Live asks first.
  await history.getByRole('row', { name: 'Version 2' }).getByRole('button', { name: 'Publish to Live' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish version 2 to Live?' });
  await expect(dialog).toContainText('instead of version 1');
  await screenshot(page, 'books-confirm-live');
  await dialog.getByRole('button', { name: 'Publish v2 to Live' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Version 2 is now published to Live')).toBeVisible();
  const publishedTo = (number: number) => history.getByRole('row', { name: `Version ${number}` }).getByTestId('published-to');
  await expect(publishedTo(2)).toHaveText('Live');
  await expect(publishedTo(1)).toHaveText('Test');
  await screenshot(page, 'books-published');

  // Customers now get v2's price; the Test environment still quotes with v1.
  const v2 = await testDb().bookVersion.findFirstOrThrow({ where: { bookId: tenant.bookId, number: 2 }, select: { id: true } });
  const live = await postJson('/v1/public_quotes', { businessId: tenant.businessId, ...windowCleaning });
  expect(live.status).toBe(201);
  expect(live.body.data.quoteIntent.bookVersionId).toBe(v2.id);
  expect(live.body.data.quoteReceipt.computation.totalMinor).toBe(11644);
  const testQuote = await postJson('/v1/quotes', { businessId: tenant.businessId, bookId: tenant.bookId, ...windowCleaning }, tenant.keys.test);
  expect(testQuote.status).toBe(201);
  expect(testQuote.body.data.quoteIntent.bookVersionId).toBe(tenant.versionId);
  expect(testQuote.body.data.quoteReceipt.computation.totalMinor).toBe(15525);

  // …and the business's hosted quote page prices with v2 too.
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await page.getByRole('radio', { name: /Window cleaning/ }).check();
  await page.getByLabel('Home size').selectOption({ label: '3 to 4 bedrooms' });
  await page.getByLabel('Storeys').selectOption({ label: 'Two storeys' });
  await page.getByLabel('How often').selectOption({ label: 'Every month' });
  await page.getByLabel('Access').selectOption({ label: 'Difficult: conservatory, steep slope or no side access' });
  await page.getByRole('button', { name: 'Get my price' }).click();
  await expect(page.getByTestId('receipt-total')).toHaveText('$116.44');
  await screenshot(page, 'books-hosted-page-after-publish');
});

test('books are listed by project; an editor creates a book but is told why it cannot be versioned', async ({ page }) => {
  const tenant = await createTenant();
  const person = await createPerson(tenant, { permissions: ['books:edit'] });
  const project = await testDb().project.findUniqueOrThrow({ where: { id: tenant.projectId }, select: { name: true } });
  const book = await testDb().book.findUniqueOrThrow({ where: { id: tenant.bookId }, select: { name: true, key: true } });
  await signIn(page, person, '/portal/books');

  const table = page.getByRole('table', { name: `Price books of ${project.name}` });
  const row = table.getByRole('row', { name: new RegExp(book.name) });
  await expect(row).toContainText('primary');
  await expect(row).toContainText(book.key);
  await expect(row.getByRole('cell')).toHaveText([new RegExp(book.name), book.key, 'v1', 'v1', 'v1']);
  await screenshot(page, 'books-list');

  const form = page.getByRole('form', { name: 'New book' });
  await form.getByLabel('Name').fill('Spring offers');
  await expect(form.getByLabel('Key')).toHaveValue('spring-offers');
  await form.getByRole('button', { name: 'Create book' }).click();

  await expect(page.getByRole('heading', { level: 1, name: /Spring offers/ })).toBeVisible();
  await expect(page.locator('input[data-path="offerings.0.label"]')).toHaveValue('My first offering');
  await expect(page.getByText('No versions yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create version from draft' })).toBeDisabled();
  await expect(page.getByText('Creating versions is for workspace members allowed to publish price books.')).toBeVisible();
  await screenshot(page, 'books-new');

  // A second book with the same key is refused in words.
  await page.getByRole('link', { name: '← All price books' }).click();
  await form.getByLabel('Name').fill('Spring offers');
  await form.getByRole('button', { name: 'Create book' }).click();
  await expect(form.getByRole('alert')).toContainText('already has a book with key "spring-offers"');
});
