import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createPerson, createTenant, testDb } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn } from '../support/portal';

const small = { offeringId: 'window_cleaning', factors: { home_size: 'small', storeys: '1', access: 'easy' } };
const medium = { offeringId: 'window_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } };
const solar = { offeringId: 'solar_panel_cleaning', factors: { panel_count: 'up_to_12', storeys: '1' } };

test('a publisher measures a draft against last week\'s quotes, reads why prices move, and publishes through the safeguard', async ({ page }) => {
  const tenant = await createTenant();
  const person = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  // Twelve Live quotes: four of them for a medium home, which the draft below makes dearer.
  for (const inputs of [...Array(6).fill(small), ...Array(4).fill(medium), ...Array(2).fill(solar)]) {
    const response = await fetch(`${appUrl()}/v1/public_quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: tenant.businessId, ...inputs }),
    });
    expect(response.status).toBe(201);
  }
  await signIn(page, person, `/portal/books/${tenant.bookId}`);

  // The larger-home surcharge goes from 25% to 40%, in the form.
  const rule = page.getByRole('article', { name: /^Add 25% to Window cleaning and Gutter cleaning/ });
  await rule.getByRole('button', { name: 'Edit' }).click();
  await rule.getByLabel('Percentage of the total so far').fill('40');
  await expect(page.getByRole('article', { name: /^Add 40% to Window cleaning/ })).toBeVisible();

  const panel = page.getByRole('region', { name: 'Impact on recent quotes' });
  await panel.getByLabel('Window').selectOption({ label: 'The last 24 hours' });
  await panel.getByRole('button', { name: 'Measure impact' }).click();
  await expect(panel.getByTestId('impact-higher')).toContainText('4');
  await expect(panel.getByTestId('impact-unchanged')).toContainText('8');
  await expect(panel).toContainText('12 quotes (3 distinct requests) in Live in the last 24 hours');
  await expect(panel.getByTestId('impact-guard')).toContainText('33.33% of these quotes (4) change by more than 10%');
  // The histogram is drawn (bars are SVG paths) and readable as a table too.
  await expect(panel.getByTestId('impact-chart').locator('svg .recharts-bar-rectangle').first()).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Quotes by change in price' }).getByRole('row', { name: /\+10% to \+20% 4 1/ })).toHaveCount(1);
  await expect(panel.getByRole('table', { name: 'Impact by offering' }).getByRole('row', { name: /Window cleaning/ })).toContainText('$1,320.00');
  // On a phone its rows become cards: no column hides off to the right.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => panel.getByRole('table', { name: 'Impact by offering' }).evaluate((table) => table.scrollWidth - table.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  const mover = panel.getByTestId('impact-mover');
  await expect(mover).toHaveCount(1);
  await expect(mover).toContainText('Home size: 3 to 4 bedrooms');
  await expect(mover).toContainText('$150.00 → $168.00');
  await expect(mover).toContainText('Larger home +$30.00 → +$48.00');
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, 'impact-panel');
  const axe = await new AxeBuilder({ page }).include('[data-testid="impact-panel"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // Figures measured before an edit say so.
  await page.getByRole('article', { name: /^Add 40% to Window cleaning/ }).getByLabel('Percentage of the total so far').fill('41');
  await expect(panel.getByText('The draft changed since these figures were measured.')).toBeVisible();
  await page.getByRole('article', { name: /^Add 41% to Window cleaning/ }).getByLabel('Percentage of the total so far').fill('40');

  // An empty window says so.
  await panel.getByLabel('Quotes from').selectOption('test');
  await panel.getByRole('button', { name: 'Measure again' }).click();
  await expect(panel.getByTestId('impact-empty')).toContainText('No quotes in Test in the last 24 hours');
  await panel.getByLabel('Quotes from').selectOption('live');
  await panel.getByRole('button', { name: 'Measure again' }).click();

  // A mover opens the trace of its newest quote, in a new tab: the draft here stays as edited.
  const [trace] = await Promise.all([
    page.waitForEvent('popup'),
    panel.getByTestId('impact-mover').getByRole('link', { name: /Trace of the newest Window cleaning quote/ }).click(),
  ]);
  await expect(trace.getByRole('heading', { level: 1, name: 'Quote trace' })).toBeVisible();
  await expect(trace.getByRole('region', { name: 'Inputs' })).toContainText('3 to 4 bedrooms');
  await screenshot(trace, 'impact-mover-trace');
  await trace.close();

  // Version the draft and publish it to Live: the dialog shows last week's impact and asks for the phrase.
  await expect(page.getByTestId('save-state')).toHaveText('Unsaved changes');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.getByRole('button', { name: 'Create version from draft' }).click();
  await expect(page.getByText('Version 2 created.')).toBeVisible();
  await page.getByRole('table', { name: 'Version history' }).getByRole('row', { name: 'Version 2' }).getByRole('button', { name: 'Publish to Live' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish version 2 to Live?' });
  await expect(dialog.getByTestId('publish-impact')).toContainText('12 quotes');
  await expect(dialog.getByTestId('impact-higher')).toContainText('4');
  const publishButton = dialog.getByRole('button', { name: 'Publish v2 to Live' });
  await expect(publishButton).toBeDisabled();
  await dialog.getByLabel('Type publish v2 to publish').fill('publish v2');
  await expect(publishButton).toBeEnabled();
  await screenshot(page, 'impact-publish-dialog', { fullPage: false });
  const dialogAxe = await new AxeBuilder({ page }).include('dialog[open]').analyze();
  expect(dialogAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await publishButton.click();
  await expect(page.getByText('Version 2 is now published to Live')).toBeVisible();

  // The audit trail keeps who published, what they typed and the impact they saw.
  const history = page.getByRole('table', { name: 'Publication history' });
  await expect(history.getByRole('row').nth(1)).toContainText(person.email);
  await expect(history.getByRole('row').nth(1)).toContainText('12 quotes: 4 up, 0 down');
  await expect(history.getByRole('row').nth(1)).toContainText('Confirmed by typing “publish v2”');
  await screenshot(page, 'impact-publication-history');
  const record = await testDb().publicationRecord.findFirstOrThrow({ where: { bookId: tenant.bookId }, orderBy: { createdAt: 'desc' } });
  expect(record).toMatchObject({ publishedBy: person.email, confirmation: 'publish v2', impact: expect.objectContaining({ quotes: 12, counts: expect.objectContaining({ higher: 4, unchanged: 8 }) }) });
});
