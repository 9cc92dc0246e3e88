import { expect, test } from '@playwright/test';
import { issueFormToken } from '../../lib/leads/form-token';
import { createTenant, testDb } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { appUrl, screenshot } from '../support/portal';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('a customer on a phone accepts a price, and the quote’s link brings back the confirmation', async ({ page }) => {
  const tenant = await createTenant();
  await testDb().business.update({ where: { id: tenant.businessId }, data: { displayName: 'Sparkle Windows' } });

  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await page.getByRole('radio', { name: /Window cleaning/ }).check();
  await page.getByLabel('Home size').selectOption({ label: '3 to 4 bedrooms' });
  await page.getByLabel('Storeys').selectOption({ label: 'Two storeys' });
  await page.getByLabel('How often').selectOption({ label: 'Every month' });
  await page.getByLabel('Access').selectOption({ label: 'Easy: clear paths, no obstacles' });
  await page.getByRole('button', { name: 'Get my price' }).click();
  await expect(page.getByRole('heading', { name: /Your price/ })).toBeVisible();
  const quoteId = new URL(page.url()).searchParams.get('quote')!;
  const validity = page.getByTestId('quote-validity');
  await expect(validity).toContainText('Sparkle Windows holds this price until');

  await page.getByRole('button', { name: 'Accept this quote' }).click();
  const form = page.getByRole('form', { name: 'Accept this quote' });
  await expect(form.getByLabel('Your name')).toBeFocused();
  // Nothing filled in: each field says what it needs, beside it.
  await form.getByRole('button', { name: 'Accept quote' }).click();
  await expect(form.getByText('Tell us your name.')).toBeVisible();
  await expect(form.getByText('Give an email address or a phone number, so that they can reach you.')).toBeVisible();
  await expect(form.getByText('Tick the box to agree to be contacted.')).toBeVisible();
  await expect(form.getByLabel('Your name')).toBeFocused();
  await screenshot(page, 'hosted-accept-errors-390');

  await form.getByLabel('Your name').fill('Morgan Lee');
  await form.getByLabel(/^Phone/).fill('+1 555 0177');
  const day = new Date(Date.now() + 40 * 86_400_000);
  const preferred = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  await form.getByLabel(/When would suit you/).fill(preferred);
  await form.getByLabel(/Anything they should know/).fill('Please ring the bell twice.');
  await form.getByRole('checkbox', { name: 'I agree that Sparkle Windows may contact me about this quote.' }).check();
  await expectNoSeriousViolations(page);
  await screenshot(page, 'hosted-accept-form-390');
  // The page is no wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Sent quicker than a person types (autofill is quick): the page waits the moment out and sends again.
  let posts = 0;
  await page.route(`**/v1/public_quotes/${quoteId}/acceptance`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    posts++;
    if (posts > 1) return route.continue();
    const body = JSON.parse(route.request().postData()!) as Record<string, unknown>;
    return route.continue({ postData: JSON.stringify({ ...body, formToken: issueFormToken(quoteId, new Date()) }) });
  });
  await form.getByRole('button', { name: 'Accept quote' }).click();
  await expect(form.getByRole('button', { name: 'Sending…' })).toBeVisible();

  const done = page.getByRole('status').filter({ hasText: 'You accepted this quote' });
  await expect(done).toBeVisible();
  expect(posts).toBe(2);
  const spoken = new Date(`${preferred}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'full', timeZone: 'UTC' });
  await expect(done).toContainText(`Sparkle Windows has your details and will contact you about ${spoken}`);
  await expect(page.getByRole('heading', { name: 'You accepted this quote' })).toBeFocused();
  await screenshot(page, 'hosted-accept-done-390');
  const stored = await testDb().quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId: quoteId } });
  expect(stored).toMatchObject({ contactName: 'Morgan Lee', contactPhone: '+1 555 0177', contactEmail: null, preferredDate: preferred });

  // Later, from the link they kept.
  await page.goto(`${appUrl()}/q/${tenant.businessId}?quote=${quoteId}`);
  await expect(page.getByRole('heading', { name: 'You accepted this quote' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept this quote' })).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('Morgan Lee');
  await expectNoSeriousViolations(page);
  await screenshot(page, 'hosted-accept-returned-390');

  // Once the price's validity has passed, the acceptance still stands on the quote's link.
  await testDb().quoteIntent.update({ where: { id: quoteId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'You accepted this quote' })).toBeVisible();
  await expect(page.getByText(/expired on/)).toHaveCount(0);
});

test('an expired price says so and cannot be accepted', async ({ page }) => {
  const tenant = await createTenant();
  const quote = await page.request.post(`${appUrl()}/v1/public_quotes`, {
    data: { businessId: tenant.businessId, offeringId: 'window_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } },
  });
  const quoteId = (await quote.json()).data.quoteIntent.id as string;
  await testDb().quoteIntent.update({ where: { id: quoteId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  await page.goto(`${appUrl()}/q/${tenant.businessId}?quote=${quoteId}`);
  await expect(page.getByRole('heading', { name: 'This price has expired' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept this quote' })).toHaveCount(0);
  await screenshot(page, 'hosted-accept-expired-390');
  await page.getByRole('button', { name: 'Get a new price' }).click();
  await expect(page.getByRole('button', { name: 'Get my price' })).toBeVisible();
});

test('a quote accepted meanwhile with other details says so, and when, never by whom', async ({ page }) => {
  const tenant = await createTenant();
  const quote = await fetch(`${appUrl()}/v1/public_quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'easy' } }),
  });
  const quoteId = ((await quote.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
  await page.goto(`${appUrl()}/q/${tenant.businessId}?quote=${quoteId}`);
  await page.getByRole('button', { name: 'Accept this quote' }).click();
  const form = page.getByRole('form', { name: 'Accept this quote' });
  await form.getByLabel('Your name').fill('Second Tab');
  await form.getByLabel(/^Email/).fill('second.tab@example.test');
  await form.getByRole('checkbox').check();
  // Meanwhile, from another tab (or another person with the link), other details.
  const first = await fetch(`${appUrl()}/v1/public_quotes/${quoteId}/acceptance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, contact: { name: 'First Tab', email: 'first.tab@example.test' }, consent: true, formToken: issueFormToken(quoteId, new Date(Date.now() - 5_000)) }),
  });
  expect(first.status).toBe(201);
  await form.getByRole('button', { name: 'Accept quote' }).click();
  await expect(page.getByRole('heading', { name: 'This quote was already accepted' })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'already accepted' })).toContainText('yours were not sent');
  await expect(page.locator('body')).not.toContainText('First Tab');
  await expect(page.locator('body')).not.toContainText('first.tab@example.test');
  await expectNoSeriousViolations(page);
  await screenshot(page, 'hosted-accepted-before-390');
  expect(await testDb().quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId: quoteId } })).toMatchObject({ contactName: 'First Tab' });
});
