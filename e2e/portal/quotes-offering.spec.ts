import { expect, test } from '@playwright/test';
import { demoExample } from '../../lib/books/demo-book';
import { createPerson, createTenant, type Tenant } from '../../lib/testing/factories';
import { appUrl, expectFitsWidth, screenshot, signIn } from '../support/portal';

// The Quotes list names every row's service in words, whatever became of the quote (priced, needing
// answers, none chosen, one the book does not have): never an empty cell or a raw id, and on a
// phone no label runs into the next.

let tenant: Tenant;
test.beforeAll(async () => {
  tenant = await createTenant();
  for (const body of [
    { offeringId: 'roof_repair', factors: {} }, // a service the book does not have (an integration's typo)
    { offeringId: '', factors: {} }, // none chosen (an API caller; the hosted page asks first)
    { offeringId: 'window_cleaning', factors: { home_size: 'medium' } }, // needs more answers
    demoExample, // priced
  ]) {
    const res = await fetch(`${appUrl()}/v1/public_quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: tenant.businessId, ...body }),
    });
    expect(res.status).toBe(201);
  }
});

/** Cells whose value is shorter than their label (which then runs into the next), and empty cells, on the phone's cards. */
function crowdedCells(page: import('@playwright/test').Page) {
  return page.getByRole('table', { name: 'Quotes' }).evaluate((table) =>
    [...table.querySelectorAll<HTMLElement>('td[data-label]')].flatMap((td) => {
      if (getComputedStyle(td).display === 'none') return [];
      const label = getComputedStyle(td, '::before');
      const labelBottom = parseFloat(label.top) + parseFloat(label.height);
      const problems: string[] = [];
      if (Number.isNaN(labelBottom)) problems.push(`${td.dataset.label}: label not measured`);
      if (td.getBoundingClientRect().height + 0.5 < labelBottom) problems.push(`${td.dataset.label}: label runs over`);
      if (!td.innerText.trim()) problems.push(`${td.dataset.label}: empty`);
      return problems;
    }),
  );
}

for (const who of ['owner', 'editor', 'viewer', 'workspaceAdmin'] as const) {
  test(`as ${who}: every quote names its service, at 1280 and 390 px`, async ({ page }) => {
    const person = await createPerson(tenant, who === 'workspaceAdmin' ? { permissions: 'all' } : { businessRole: who });
    await signIn(page, person, `/portal/quotes?business=${tenant.businessId}`);
    const table = page.getByRole('table', { name: 'Quotes' });
    const offerings = table.locator('td[data-label="Offering"]');
    await expect(offerings).toHaveText(['Window cleaning', 'Window cleaning', 'No service chosen', 'Unknown service']);
    await expect(table).not.toContainText('window_cleaning');
    await expect(table).not.toContainText('roof_repair');
    await expect(table.getByRole('link', { name: /^Trace of the No service chosen quote/ })).toHaveCount(1);
    await screenshot(page, `quotes-offering-${who}-1280`);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(offerings.first()).toBeVisible();
    expect(await crowdedCells(page)).toEqual([]);
    await expectFitsWidth(page, 390);
    await screenshot(page, `quotes-offering-${who}-390`);
  });
}
