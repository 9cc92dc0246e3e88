import { expect, test, type Page } from '@playwright/test';
import { createTenant, testDb } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { appUrl, screenshot } from '../support/portal';

// The acceptance form's errors read as sentences beside their fields, whether the page finds the
// problem itself or the service refuses what was sent (its messages are for developers).

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const DAY = 86_400_000;
const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

async function openAcceptForm(page: Page) {
  const tenant = await createTenant();
  const made = await page.request.post(`${appUrl()}/v1/public_quotes`, {
    data: { businessId: tenant.businessId, offeringId: 'window_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } },
  });
  const quoteId = (await made.json()).data.quoteIntent.id as string;
  await page.goto(`${appUrl()}/q/${tenant.businessId}?quote=${quoteId}`);
  await page.getByRole('button', { name: 'Accept this quote' }).click();
  const form = page.getByRole('form', { name: 'Accept this quote' });
  await form.getByLabel('Your name').fill('Morgan Lee');
  await form.getByLabel(/^Phone/).fill('+1 555 0177');
  await form.getByRole('checkbox').check();
  return { form, quoteId };
}

test('a past day typed in the date box is explained beside it before anything is sent', async ({ page }) => {
  const { form, quoteId } = await openAcceptForm(page);
  let posts = 0;
  page.on('request', (r) => void (r.method() === 'POST' && r.url().endsWith(`/${quoteId}/acceptance`) && posts++));
  const date = form.getByLabel(/When would suit you/);
  await date.fill(dayOf(new Date(Date.now() - 10 * DAY)));
  await form.getByRole('button', { name: 'Accept quote' }).click();
  await expect(date).toBeFocused();
  await expect(date).toHaveAccessibleDescription('Pick a day from today on, within the next two years.');
  await expectNoSeriousViolations(page);
  await screenshot(page, 'hosted-accept-past-date-390');
  expect(posts).toBe(0);
  expect(await testDb().quoteAcceptance.count({ where: { quoteIntentId: quoteId } })).toBe(0);
});

test('the service’s refusal of a day reads as the page’s sentence, not its raw message', async ({ page }) => {
  // The phone's calendar is a year behind: the page takes a day the service then refuses as past.
  await page.clock.setFixedTime(new Date(Date.now() - 365 * DAY));
  const { form, quoteId } = await openAcceptForm(page);
  const date = form.getByLabel(/When would suit you/);
  await date.fill(dayOf(new Date(Date.now() - 30 * DAY)));
  // (A form sent within a moment of opening is answered "too fast" and sent again by the page: the refusal of the day is the one awaited.)
  const answered = page.waitForResponse(
    async (r) => r.request().method() === 'POST' && r.url().endsWith(`/${quoteId}/acceptance`) && (await r.json()).error?.details?.fields?.preferredDate !== undefined,
  );
  await form.getByRole('button', { name: 'Accept quote' }).click();
  const response = await answered;
  expect(response.status()).toBe(400);
  expect((await response.json()).error.details.fields.preferredDate).toEqual(['pick a day from today on, within two years']);

  await expect(date).toBeFocused();
  await expect(date).toHaveAccessibleDescription('Pick a day from today on, within the next two years.');
  await expect(form).not.toContainText('pick a day from today on, within two years');
  await screenshot(page, 'hosted-accept-refused-date-390');
  expect(await testDb().quoteAcceptance.count({ where: { quoteIntentId: quoteId } })).toBe(0);
});
