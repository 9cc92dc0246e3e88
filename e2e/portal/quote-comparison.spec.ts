import { expect, test, type Page } from '@playwright/test';
import { demoExample } from '../../lib/books/demo-book';
import { createPerson, createTenant, quoteRequest, type Tenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn } from '../support/portal';

const otherAnswers = { offeringId: 'window_cleaning', factors: { home_size: 'large', storeys: '3', frequency: 'monthly', access: 'easy' } };

/** A quote of the tenant's business by its Live key (listed on Quotes, logged in the request log). */
async function quote(tenant: Tenant, answers: Record<string, unknown>) {
  const response = await fetch(`${appUrl()}/v1/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.keys.live}`, 'content-type': 'application/json' },
    body: JSON.stringify(quoteRequest(tenant, answers)),
  });
  expect(response.status).toBe(201);
  const body = await response.json();
  return { id: body.data.quoteIntent.id as string, requestId: response.headers.get('x-request-id')! };
}

/** The comparison of the demo answers (A, $155.25) with larger home, three storeys, easy access (B, $175.50). */
async function expectDemoComparison(page: Page, a: string, b: string) {
  await expect(page).toHaveURL(new RegExp(`/portal/quotes/compare\\?a=${a}&b=${b}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Compare two quotes' })).toBeVisible();
  await expect(page.getByTestId('reconciliation')).toContainText('Explained: +$20.25 = $175.50 − $155.25');
  await expect(page.getByTestId('total-A')).toHaveText('$155.25');
  await expect(page.getByTestId('total-B')).toHaveText('$175.50');
  await expect(page.getByRole('list', { name: 'Summary' })).toContainText('B comes to $175.50, $20.25 more than A ($155.25).');

  const answers = page.getByRole('table', { name: 'Answers that differ' });
  await expect(answers.getByRole('row')).toHaveCount(4);
  await expect(answers.getByRole('row', { name: /Home size/ })).toContainText('3 to 4 bedrooms5 bedrooms or more');

  // The differing steps, highlighted in both waterfalls with a label (not by colour alone).
  for (const name of ['A', 'B']) {
    const waterfall = page.getByRole('table', { name: `Waterfall of quote ${name}` });
    const marked = waterfall.locator('tr[data-differs]');
    await expect(marked).toHaveCount(3);
    await expect(marked).toContainText([/Three or more storeys.*≠ differs/, /Difficult access.*≠ differs/, /Recurring visit discount.*≠ differs/]);
    await expect(waterfall.getByRole('row', { name: /Larger home/ })).not.toContainText('differs');
  }
  await expect(page.getByRole('list', { name: 'Surcharges for answers' })).toContainText(
    '“Difficult access” applied to A (+$22.50) but not to B. Difference: −$22.50.',
  );
}

test('a member picks two quotes on the Quotes page, the request log and a trace, and sees why their prices differ', async ({ page }) => {
  const tenant = await createTenant();
  const member = await createPerson(tenant, { permissions: ['logs:read'], businessRole: 'owner' });
  const a = await quote(tenant, demoExample);
  const b = await quote(tenant, otherAnswers);

  // Quotes, newest first: tick A (the older) then B, and compare.
  await signIn(page, member, `/portal/quotes?business=${tenant.businessId}`);
  const quotes = page.getByRole('table', { name: 'Quotes' });
  await expect(quotes.getByRole('row')).toHaveCount(3);
  const compare = page.getByRole('group', { name: 'Compare two quotes' });
  await expect(compare.getByRole('button', { name: 'Compare' })).toBeDisabled();
  await quotes.getByRole('row').nth(2).getByRole('checkbox').check();
  await expect(compare).toContainText('1 of 2 quotes picked.');
  await quotes.getByRole('row').nth(1).getByRole('checkbox').check();
  await expect(compare).toContainText('Two quotes picked.');
  await screenshot(page, 'quote-comparison-picked');
  await compare.getByRole('link', { name: 'Compare' }).click();
  await expectDemoComparison(page, a.id, b.id);
  await screenshot(page, 'quote-comparison');

  // Swapped, every difference changes sign.
  await page.getByRole('link', { name: 'Swap A and B' }).click();
  await expect(page.getByTestId('reconciliation')).toContainText('Explained: −$20.25 = $155.25 − $175.50');

  // The request log: both requests made quotes; pick them there.
  await page.goto(`${appUrl()}/portal/request-logs?environment=live`);
  const requests = page.getByRole('table', { name: 'Requests' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(requests.getByRole('checkbox')).toHaveCount(2, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await requests.getByRole('checkbox', { name: `Compare the quote made by request ${a.requestId}` }).check();
  await requests.getByRole('checkbox', { name: `Compare the quote made by request ${b.requestId}` }).check();
  await page.getByRole('group', { name: 'Compare two quotes' }).getByRole('link', { name: 'Compare' }).click();
  await expectDemoComparison(page, a.id, b.id);

  // A trace: "Compare with…" one of the business's recent quotes, by keyboard.
  await page.getByRole('link', { name: 'Open the trace of quote A' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Quote trace' })).toBeVisible();
  const compareWith = page.getByRole('button', { name: 'Compare with…' });
  await compareWith.focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'Compare this quote with another' });
  const recent = form.getByLabel('A recent quote of this business');
  await expect(recent.locator('option', { hasText: '$175.50' })).toHaveAttribute('value', b.id);
  await recent.selectOption(b.id);
  await screenshot(page, 'quote-comparison-from-trace');
  await form.getByRole('button', { name: 'Compare' }).press('Enter');
  await expectDemoComparison(page, a.id, b.id);
});

test('on a phone the comparison fits the screen, and says plainly when a quote was not priced', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const tenant = await createTenant();
  const member = await createPerson(tenant, { businessRole: 'viewer' });
  const a = await quote(tenant, demoExample);
  const b = await quote(tenant, otherAnswers);
  await signIn(page, member, `/portal/quotes/compare?a=${a.id}&b=${b.id}`);
  await expect(page.getByTestId('reconciliation')).toContainText('Explained: +$20.25 = $175.50 − $155.25');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'quote-comparison-phone');

  const unpriced = await quote(tenant, { ...demoExample, factors: { ...demoExample.factors, storeys: null } });
  await page.goto(`${appUrl()}/portal/quotes/compare?a=${unpriced.id}&b=${a.id}`);
  await expect(page.getByRole('list', { name: 'Summary' })).toContainText('A was not priced: it still needs an answer to Storeys.');
  await expect(page.getByText('Quote A was not priced, so there are no steps to set against B’s.')).toBeVisible();
  await expect(page.getByTestId('reconciliation')).toHaveCount(0);
  await screenshot(page, 'quote-comparison-unpriced', { fullPage: false });
});
