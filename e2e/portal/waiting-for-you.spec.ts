import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { issueFormToken } from '../../lib/leads/form-token';
import { createPerson, createTenant, type Tenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn } from '../support/portal';

// The Overview's "Waiting for you" and "Getting started" show each person only what they can act
// on: held quotes to those who decide them, leads to those who work them, set-up steps to those
// with the page to do them.

let tenant: Tenant;
test.beforeAll(async () => {
  tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
  for (const storeys of ['2', '3']) {
    const res = await fetch(`${appUrl()}/v1/accounts/${tenant.projectId}/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.live}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ services: [{ service: 'window_cleaning', selections: { home_size: 'medium', storeys, frequency: 'monthly', access: 'easy' } }] }),
    });
    expect(((await res.json()) as { state: string }).state).toBe('awaiting_approval');
  }
  const quote = await fetch(`${appUrl()}/v1/public_quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, offeringId: 'gutter_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } }),
  });
  const quoteIntentId = ((await quote.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
  const accepted = await fetch(`${appUrl()}/v1/public_quotes/${quoteIntentId}/acceptance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      businessId: tenant.businessId,
      contact: { name: 'Riley Chen', email: 'riley.chen@example.test' },
      consent: true,
      formToken: issueFormToken(quoteIntentId, new Date(Date.now() - 5_000)),
    }),
  });
  expect(accepted.status).toBe(201);
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
    await signIn(page, person.email);
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
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, `overview-${who}-390`);
  });
}
