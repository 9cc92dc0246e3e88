import { expect, test, type Page } from '@playwright/test';
import { createPerson, createTenant, type Tenant } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { acceptedLead } from '../support/pipeline';
import { appUrl, expectFitsWidth, screenshot, signIn } from '../support/portal';

/** An API-key quote of the tenant's Live environment. */
async function apiQuote(tenant: Tenant, offeringId: string, factors: Record<string, string>) {
  const res = await fetch(`${appUrl()}/v1/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.keys.live}`, 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, bookId: tenant.bookId, offeringId, factors }),
  });
  expect(res.status).toBe(201);
}

/** A business with a funnel: two priced window quotes, one accepted gutter quote, two left without storeys. */
async function businessWithFunnel() {
  const tenant = await createTenant();
  await apiQuote(tenant, 'window_cleaning', { home_size: 'medium', storeys: '2', access: 'easy' });
  await apiQuote(tenant, 'window_cleaning', { home_size: 'large', storeys: '3', access: 'difficult' });
  await apiQuote(tenant, 'window_cleaning', { home_size: 'medium', access: 'easy' });
  await apiQuote(tenant, 'gutter_cleaning', { home_size: 'small', access: 'easy' });
  await acceptedLead(tenant);
  return tenant;
}

async function readFunnel(page: Page, tenant: Tenant, width: number) {
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  await signIn(page, owner, `/portal/funnel?business=${tenant.businessId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Funnel' })).toBeVisible();
  const stages = page.getByRole('list', { name: /^Funnel of / });
  await expect(stages.getByRole('listitem')).toHaveText([
    'Quotes: 5',
    'Priced: 3 (60% of quotes)',
    'Needed answers: 2 (40% of quotes)',
    'Accepted: 1 (33.3% of priced)',
    'Committed: 0',
    'Won: 0 (0% of accepted)',
  ]);
  await expect(page.getByTestId('funnel-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(page.getByTestId('funnel-unanswered')).toHaveText(/2 customers left ‘Storeys’ unanswered/);
  await expect(page.getByTestId('funnel-median')).toHaveText(/\$/);
  await expect(page.getByRole('table', { name: /per week$/ }).getByRole('row')).toHaveCount(2);
  await expectFitsWidth(page, width);
  await expectNoSeriousViolations(page);
  await screenshot(page, `funnel-${width}`);

  // The service picker, by keyboard: gutter cleaning only.
  const picker = page.getByLabel('Service');
  await picker.focus();
  await expect(picker).toBeFocused();
  await picker.selectOption({ label: 'Gutter cleaning' });
  await expect(stages.getByRole('listitem').first()).toHaveText('Quotes: 2');
  await expect(page.getByTestId('funnel-unanswered')).toHaveText(/1 customer left ‘Storeys’ unanswered/);
  await expectFitsWidth(page, width);
}

test('an owner reads the funnel of their business at 1280 px', async ({ page }) => {
  await readFunnel(page, await businessWithFunnel(), 1280);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('an owner reads the funnel of their business at 390 px', async ({ page }) => {
    await readFunnel(page, await businessWithFunnel(), 390);
  });
});

test('a business without quotes says so, and the funnel is in the navigation', async ({ page }) => {
  const tenant = await createTenant();
  const viewer = await createPerson(tenant, { businessRole: 'viewer' });
  await signIn(page, viewer, '/portal');
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Funnel' }).click();
  await expect(page.getByText('No quotes yet in the last 12 weeks')).toBeVisible();
  await expectFitsWidth(page, 1280);
});
