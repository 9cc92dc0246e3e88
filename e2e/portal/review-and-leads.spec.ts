import { expect, test, type Page } from '@playwright/test';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { createPerson, createTenant, testDb, type Tenant } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { acceptedLead, heldQuote } from '../support/pipeline';
import { screenshot, signIn } from '../support/portal';

async function reviewBothAs(page: Page, tenant: Tenant, width: number) {
  const [first, second] = [await heldQuote(tenant, { storeys: '2' }), await heldQuote(tenant, { storeys: '3' })];
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  await signIn(page, owner, `/portal/review?business=${tenant.businessId}`);
  const list = page.getByRole('list', { name: 'Waiting for review' });
  await expect(list.getByRole('article')).toHaveCount(2);
  if (width < 700) await page.getByRole('button', { name: /Menu/ }).click();
  await expect(page.getByRole('link', { name: 'Review 2 waiting for review' })).toBeVisible();
  if (width < 700) await page.getByRole('button', { name: /Close/ }).click();
  await expect(list.getByRole('article').first()).toContainText('Why it was held');
  await expect(list.getByRole('article').first()).toContainText('The business reviews every quote before it is sent.');
  await expectNoSeriousViolations(page);
  await screenshot(page, `review-inbox-${width}`);

  // Oldest first: approve the first (a Live quote: asked once more).
  await list.getByRole('article').first().getByRole('button', { name: /^Approve the quote of/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve quote' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Approved the quote of/ })).toBeVisible();
  await expect(list.getByRole('article')).toHaveCount(1);

  // Decline the other: a reason is asked for.
  const other = list.getByRole('article').first();
  await other.getByRole('button', { name: /^Decline the quote of/ }).click();
  const decline = other.getByRole('form', { name: /^Decline the quote of/ });
  await expect(decline.getByLabel('Why decline it?')).toBeFocused();
  await decline.getByRole('button', { name: 'Decline quote' }).click();
  await expect(decline.getByText('Say why, so that the integration can tell the customer.')).toBeVisible();
  await decline.getByLabel('Why decline it?').fill('We do not clean four-storey homes in winter.');
  await screenshot(page, `review-decline-${width}`);
  await decline.getByRole('button', { name: 'Decline quote' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Declined the quote of/ })).toBeVisible();
  await expect(page.getByText('Nothing is waiting for review.')).toBeVisible();

  await page.getByRole('radio', { name: 'Reviewed' }).check();
  const reviewed = page.getByRole('list', { name: 'Reviewed' });
  await expect(reviewed.getByRole('article')).toHaveCount(2);
  await expect(reviewed).toContainText('Approved by');
  await expect(reviewed).toContainText('“We do not clean four-storey homes in winter.”');
  await expectNoSeriousViolations(page);
  await screenshot(page, `review-reviewed-${width}`);

  const stored = await testDb().accountQuote.findMany({ where: { id: { in: [first, second] } }, orderBy: { createdAt: 'asc' } });
  expect(stored.map((q) => [q.state, q.reviewDecision, q.reviewedBy])).toEqual([
    ['quoted', 'approved', owner.userId],
    ['awaiting_approval', 'declined', owner.userId],
  ]);
}

test('an owner approves one held quote and declines another, at 1280 px', async ({ page }) => {
  const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
  await reviewBothAs(page, tenant, 1280);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('an owner approves one held quote and declines another, at 390 px', async ({ page }) => {
    const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
    await reviewBothAs(page, tenant, 390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test('a viewer sees held quotes read-only', async ({ page }) => {
  const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
  [await heldQuote(tenant, { storeys: '2' }), await heldQuote(tenant, { storeys: '3' })];
  const viewer = await createPerson(tenant, { businessRole: 'viewer' });
  await signIn(page, viewer, '/portal/review');
  await expect(page.getByText('You can look but not decide')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Waiting for review' }).getByRole('article')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
});


for (const width of [1280, 390]) {
  test(`an editor moves a lead to won, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const tenant = await createTenant();
    const quoteIntentId = await acceptedLead(tenant);
    const editor = await createPerson(tenant, { businessRole: 'editor' });
    await signIn(page, editor, `/portal/leads?business=${tenant.businessId}`);
    const lead = page.getByRole('article', { name: 'Riley Chen' });
    await expect(lead.getByRole('link', { name: 'riley.chen@example.test' })).toHaveAttribute('href', 'mailto:riley.chen@example.test');
    await expect(lead).toContainText('Mornings are best.');
    await expect(lead.getByRole('link', { name: 'Trace of the quote Riley Chen accepted' })).toHaveAttribute('href', `/portal/traces/${quoteIntentId}`);
    // Erasing personal data is the owner's: an editor is not offered it.
    await expect(lead.getByRole('button', { name: /Erase/ })).toHaveCount(0);
    await lead.getByLabel('Status').selectOption('won');
    await expect(lead.locator('.badge')).toHaveText('Won');
    await expectNoSeriousViolations(page);
    await screenshot(page, `leads-won-${width}`);
    expect(await testDb().quoteAcceptance.findUniqueOrThrow({ where: { quoteIntentId } })).toMatchObject({ status: 'won', statusChangedBy: editor.userId });
  });
}

test('an owner erases a lead: it leaves the pipeline and the count of new leads', async ({ page }) => {
  const tenant = await createTenant();
  await acceptedLead(tenant);
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  await signIn(page, owner, `/portal/leads?business=${tenant.businessId}`);
  await expect(page.getByTestId('nav-count-leads')).toHaveText(/^1/);
  const lead = page.getByRole('article', { name: 'Riley Chen' });
  await lead.getByRole('button', { name: 'Erase the personal data of Riley Chen' }).click();
  await lead.getByRole('button', { name: 'Erase', exact: true }).click();
  const erased = page.getByRole('article', { name: 'Personal data erased' });
  await expect(erased.locator('.badge')).toHaveText('Erased');
  await expect(erased).toContainText('Their contact details were erased on');
  // Nothing left to do with it: no status to move, nothing more to erase.
  await expect(erased.getByLabel('Status')).toHaveCount(0);
  await expect(erased.getByRole('button')).toHaveCount(0);
  await expect(page.getByTestId('nav-count-leads')).toHaveCount(0);
  await expect(page.getByText('Riley Chen')).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await screenshot(page, 'leads-erased-1280');
});
