import { expect, test, type Page } from '@playwright/test';
import { demoExample } from '../../lib/books/demo-book';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn } from '../support/portal';

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Portal' }).getByRole('link');

test('a business owner finds only the pages they can use, lists their business\'s quotes and traces one', async ({ page }) => {
  const tenant = await createTenant();
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  const admin = await createPerson(tenant, { permissions: 'all' }); // whom the portal names when the owner needs access
  for (const storeys of ['2', null]) {
    const response = await fetch(`${appUrl()}/v1/public_quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: tenant.businessId, ...demoExample, factors: { ...demoExample.factors, storeys } }),
    });
    expect(response.status).toBe(201);
  }

  await signIn(page, owner);
  await expect(navLinks(page)).toHaveText(['Overview', 'Funnel', 'Quotes', 'Review', 'Leads', 'Members', 'Branding', 'Quote traces']);
  await expect(page.getByRole('main')).toContainText('Your role: Owner. Reviews held quotes, works leads, manages the business’s members');
  await expect(page.getByRole('main')).not.toContainText('not a member of a workspace');
  // The figures a business looks at first: today's quotes by outcome, and set-up steps that tick themselves.
  const today = page.getByRole('table', { name: /^Live quotes per day of/ }).getByRole('row').last();
  await expect(today.getByRole('cell')).toHaveText([/\w+ \d+/, '1', '1', '0']); // one priced, one needing answers
  await expect(page.getByTestId('overview-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  const steps = page.getByRole('list', { name: /^Getting started with/ });
  await expect(steps.getByRole('listitem', { name: 'Make a first quote on your hosted page: done' })).toBeVisible();
  // Set-up steps of the workspace (webhooks, keys, publishing) are not an owner's to do: not listed.
  await expect(steps.getByRole('listitem', { name: /^Add a webhook endpoint/ })).toHaveCount(0);
  await screenshot(page, 'roles-owner-overview');

  await navLinks(page).filter({ hasText: 'Quotes' }).click();
  const quotes = page.getByRole('table', { name: 'Quotes' });
  await expect(quotes.getByRole('row')).toHaveCount(3);
  await expect(quotes.getByRole('row').nth(1)).toContainText('Needs more answers');
  await expect(quotes.getByRole('row').nth(2)).toContainText('Window cleaning');
  await expect(quotes.getByRole('row').nth(2)).toContainText('$155.25');
  await screenshot(page, 'roles-owner-quotes');

  await quotes.getByRole('row').nth(2).getByRole('link', { name: /^Trace of the Window cleaning quote/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Quote trace' })).toBeVisible();
  await expect(page.getByTestId('quote-status')).toHaveText('Priced');
  // The steps in the book's words: the owner reads the version their quote was priced with.
  await expect(page.getByRole('table', { name: 'Price waterfall' })).toContainText('Access is “Difficult: conservatory, steep slope or no side access”');
  await expect(page.getByRole('link', { name: 'Show in the request log' })).toHaveCount(0);
  await screenshot(page, 'roles-owner-trace');

  // The book their quote came from reads as a book, with a way back to where they work (not a list of
  // workspace books they cannot see), and says in words whom to ask for changes.
  await page.getByRole('link', { name: 'Open the book' }).click();
  await expect(page.getByRole('main')).toContainText(`Changing it is for workspace members allowed to edit price books. Ask Test Person (${admin.email}), a workspace admin, if you need it.`);
  await expect(page.getByTestId('save-state')).toBeHidden();
  await page.getByRole('link', { name: '← Your business’s quotes' }).click();
  await expect(page.getByRole('table', { name: 'Quotes' })).toBeVisible();

  // A page outside their role, opened by its address, says what it needs instead of an empty search.
  await page.goto(`${appUrl()}/portal/request-logs`);
  await expect(page.getByTestId('needs-access')).toContainText(
    `Searching the request log is for workspace members allowed to search it. Ask Test Person (${admin.email}), a workspace admin, if you need it.`,
  );
  await expect(page.getByTestId('needs-access')).not.toContainText('logs:read');
  await expect(page.getByRole('textbox', { name: 'Request id' })).toHaveCount(0);
});

test('a viewer reads, a workspace member with permissions sees their pages; permissions read as words', async ({ page }) => {
  const tenant = await createTenant();
  const viewer = await createPerson(tenant, { businessRole: 'viewer' });
  await signIn(page, viewer);
  await expect(navLinks(page)).toHaveText(['Overview', 'Funnel', 'Quotes', 'Review', 'Leads', 'Members', 'Branding', 'Quote traces']);
  await expect(page.getByRole('link', { name: 'Branding (read-only)' })).toBeVisible();

  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish', 'logs:read'] });
  await page.context().clearCookies();
  await signIn(page, publisher);
  await expect(navLinks(page)).toHaveText(['Overview', 'Price books', 'API keys', 'Request log', 'Quote traces']);
  await expect(page.getByRole('main')).toContainText('In this workspace you can edit price books; create versions and publish price books; search the request log.');
  await expect(page.getByRole('main')).not.toContainText('books:edit');
  await screenshot(page, 'roles-publisher-overview');
});
