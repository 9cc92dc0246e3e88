import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { createPerson, createTenant, testDb, type Tenant } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { appUrl, signIn } from '../support/portal';

// Spec 9: member routes use the business's Live connection. Held Test quotes are reviewed from
// the workspace (/v1/account-quotes) by members with `businesses:manage`; owners see Live only.

async function heldQuote(tenant: Tenant, key: string, storeys: string) {
  const res = await fetch(`${appUrl()}/v1/accounts/${tenant.projectId}/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ services: [{ service: 'window_cleaning', selections: { home_size: 'medium', storeys, frequency: 'monthly', access: 'easy' } }] }),
  });
  const quote = (await res.json()) as { quote_id: string; state: string };
  expect(quote.state).toBe('awaiting_approval');
  return quote.quote_id;
}

test('a workspace manager reviews a held Test quote; the owner sees only the Live one', async ({ page }) => {
  const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
  const testQuote = await heldQuote(tenant, tenant.keys.test, '2');
  const liveQuote = await heldQuote(tenant, tenant.keys.live, '3');
  const manager = await createPerson(tenant, { permissions: ['businesses:manage'] });

  await signIn(page, manager.email, `/portal/review?business=${tenant.businessId}`);
  const waiting = page.getByRole('list', { name: 'Waiting for review' });
  await expect(waiting.getByRole('article')).toHaveCount(1);
  await expect(waiting.locator(`code[title="${liveQuote}"]`)).toHaveCount(1);
  await page.getByLabel('Environment').selectOption('test');
  await expect(waiting.getByRole('article')).toHaveCount(1);
  await expect(waiting.locator(`code[title="${testQuote}"]`)).toHaveCount(1);
  await expectNoSeriousViolations(page);
  await waiting.getByRole('article').first().getByRole('button', { name: /^Approve the quote of/ }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Approved the quote of/ })).toBeVisible();
  await expect(page.getByText('Nothing is waiting for review.')).toBeVisible();
  const stored = await testDb().accountQuote.findUniqueOrThrow({ where: { id: testQuote } });
  expect([stored.state, stored.reviewDecision, stored.reviewedBy, stored.environmentId]).toEqual(['quoted', 'approved', manager.userId, tenant.environments.test]);
  expect((await testDb().accountQuote.findUniqueOrThrow({ where: { id: liveQuote } })).reviewDecision).toBeNull();

  // The owner, a member of the business only: its Live quotes, no environment to switch to.
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  await page.context().clearCookies();
  await signIn(page, owner.email, `/portal/review?business=${tenant.businessId}`);
  const ownerList = page.getByRole('list', { name: 'Waiting for review' });
  await expect(ownerList.getByRole('article')).toHaveCount(1);
  await expect(ownerList.locator(`code[title="${liveQuote}"]`)).toHaveCount(1);
  await expect(page.getByLabel('Environment')).toHaveCount(0);
});
