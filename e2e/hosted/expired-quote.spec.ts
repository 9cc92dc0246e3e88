import { expect, test } from '@playwright/test';
import { createTenant, testDb } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { appUrl, screenshot } from '../support/portal';

// A customer opens the link to a price that has expired: the page says so plainly, offers nothing
// of the old price (no deposit to book, no link to come back to it, no booking button, no
// acceptance), and the one way on is a new price with their answers filled in.

for (const [width, height] of [
  [390, 844],
  [1280, 900],
] as const) {
  test(`an expired price says it expired and leads to a new one, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const tenant = await createTenant();
    await testDb().business.update({
      where: { id: tenant.businessId },
      data: { displayName: 'Sparkle Windows', nextStepLabel: 'Book this visit', nextStepUrl: 'https://book.example.test/visit' },
    });
    const factors = { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' };
    const made = await page.request.post(`${appUrl()}/v1/public_quotes`, { data: { businessId: tenant.businessId, offeringId: 'window_cleaning', factors } });
    const quoteId = (await made.json()).data.quoteIntent.id as string;
    await testDb().quoteIntent.update({ where: { id: quoteId }, data: { expiresAt: new Date(Date.now() - 60_000) } });

    await page.goto(`${appUrl()}/q/${tenant.businessId}?quote=${quoteId}`);
    await expect(page.getByRole('heading', { name: 'This price has expired' })).toBeFocused();
    const receipt = page.getByRole('region', { name: 'This price has expired' });
    await expect(receipt.getByTestId('quote-expired')).toHaveText(
      /^The price Sparkle Windows gave you for window cleaning was valid until \w+, \w+ \d+, \d{4}\. Prices change, so it can no longer be accepted\.$/,
    );
    // Nothing that offers the old price.
    for (const gone of [/deposit to book/i, /come back to this price/i, /deposit due now/i, /holds this price/i]) {
      await expect(page.locator('body')).not.toContainText(gone);
    }
    await expect(page.getByRole('link', { name: 'Book this visit' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Accept this quote' })).toHaveCount(0);
    // The old figures are kept for the record, folded away.
    await expect(receipt.getByTestId('receipt-total')).toBeHidden();
    await expectNoSeriousViolations(page);
    await screenshot(page, `hosted-expired-${width}`);
    await receipt.getByText('The expired price: $155.25').click();
    await expect(receipt.getByTestId('receipt-total')).toHaveText('$155.25');
    await expect(receipt.getByTestId('quote-reference')).toHaveText(quoteId);
    await screenshot(page, `hosted-expired-record-${width}`);
    if (width < 500) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // A new price for the same job: the answers come back, checked and sent as a new quote.
    await receipt.getByRole('button', { name: 'Get a new price' }).click();
    await expect(page).toHaveURL(`${appUrl()}/q/${tenant.businessId}`);
    const note = page.getByRole('status').filter({ hasText: 'Your answers from before are filled in.' });
    await expect(note).toBeFocused();
    await expect(page.getByRole('radio', { name: /Window cleaning/ })).toBeChecked();
    await expect(page.getByLabel('Home size')).toHaveValue('medium');
    await expect(page.getByLabel('Access')).toHaveValue('difficult');
    await screenshot(page, `hosted-expired-refilled-${width}`);
    await page.getByRole('button', { name: 'Get my price' }).click();
    await expect(page.getByRole('heading', { name: 'Your price for window cleaning' })).toBeFocused();
    await expect(page.getByTestId('quote-validity')).toContainText('Sparkle Windows holds this price until');
    const fresh = new URL(page.url()).searchParams.get('quote');
    expect(fresh).not.toBe(quoteId);
    expect(await testDb().quoteIntent.count({ where: { businessId: tenant.businessId } })).toBe(2);
  });
}
