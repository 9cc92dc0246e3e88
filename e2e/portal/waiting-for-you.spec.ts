import { expect, test } from '@playwright/test';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { createPerson, createTenant, type Tenant } from '../../lib/testing/factories';
import { acceptedLead, heldQuote } from '../support/pipeline';
import { expectFitsWidth, screenshot, signIn } from '../support/portal';

// The Overview's "Waiting for you" and "Getting started" show each person only what they can act
// on: held quotes to those who decide them, leads to those who work them, set-up steps to those
// with the page to do them.

let tenant: Tenant;
test.beforeAll(async () => {
  tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
  for (const storeys of ['2', '3']) await heldQuote(tenant, { storeys });
  await acceptedLead(tenant, { contact: { name: 'Riley Chen', email: 'riley.chen@example.test' } });
});

const SEES = {
  owner: { held: true, leads: true, steps: ['Make a first quote on your hosted page'] },
  editor: { held: false, leads: true, steps: ['Make a first quote on your hosted page'] },
  viewer: { held: false, leads: false, steps: ['Make a first quote on your hosted page'] },
  workspaceAdmin: {
    held: true,
    leads: true,
    steps: ['Publish a price book to Live', 'Create an API key for your software', 'Make a first quote on your hosted page', 'Add a webhook endpoint'],
  },
} as const;

for (const who of Object.keys(SEES) as (keyof typeof SEES)[]) {
  test(`as ${who}: waiting for you and getting started hold only what they can act on`, async ({ page }) => {
    const person = await createPerson(tenant, who === 'workspaceAdmin' ? { permissions: 'all' } : { businessRole: who });
    const sees = SEES[who];
    const inboxRead = page.waitForResponse('**/v1/me/inbox');
    await signIn(page, person);
    const steps = page.getByRole('list', { name: /^Getting started with/ });
    await expect(steps.getByRole('listitem')).toHaveCount(sees.steps.length);
    for (const [i, step] of sees.steps.entries()) await expect(steps.getByRole('listitem').nth(i)).toHaveAccessibleName(new RegExp(`^${step}: (done|to do)$`));
    if (!(sees.steps as readonly string[]).includes('Add a webhook endpoint')) await expect(page.getByRole('main')).not.toContainText('Add a webhook endpoint');

    const waiting = page.getByRole('heading', { name: 'Waiting for you' });
    await expect(waiting).toHaveCount(sees.held || sees.leads ? 1 : 0);
    await expect(page.getByTestId('overview-held')).toHaveCount(sees.held ? 1 : 0);
    if (sees.held) await expect(page.getByTestId('overview-held')).toHaveText('2 waiting');
    await expect(page.getByTestId('overview-leads')).toHaveCount(sees.leads ? 1 : 0);
    if (sees.leads) await expect(page.getByTestId('overview-leads')).toHaveText('1 this week, 1 not contacted yet');
    if (!sees.held) await expect(page.getByRole('main')).not.toContainText('Held quotes to review');
    // The navigation counts new leads beside Leads only for those who work them (the inbox read, the counts are drawn).
    expect((await inboxRead).status()).toBe(200);
    await expect(page.getByTestId('nav-count-leads')).toHaveCount(sees.leads ? 1 : 0);
    await expect(page.getByTestId('nav-count-review')).toHaveCount(sees.held ? 1 : 0);
    await screenshot(page, `overview-${who}-1280`);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(steps).toBeVisible();
    await expectFitsWidth(page, 390);
    await screenshot(page, `overview-${who}-390`);
  });
}
