import { expect, test } from '@playwright/test';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { createPerson, createTenant, testDb } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { heldQuote } from '../support/pipeline';
import { signIn } from '../support/portal';

// Spec 9: member routes use the business's Live connection. Held Test quotes are reviewed from
// the workspace (/v1/account-quotes) by members with `businesses:manage`; owners see Live only.

test('a workspace manager reviews a held Test quote; the owner sees only the Live one', async ({ page }) => {
  const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
  const testQuote = await heldQuote(tenant, { environment: 'test', storeys: '2' });
  const liveQuote = await heldQuote(tenant, { environment: 'live', storeys: '3' });
  const manager = await createPerson(tenant, { permissions: ['businesses:manage'] });

  await signIn(page, manager, `/portal/review?business=${tenant.businessId}`);
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
  await signIn(page, owner, `/portal/review?business=${tenant.businessId}`);
  const ownerList = page.getByRole('list', { name: 'Waiting for review' });
  await expect(ownerList.getByRole('article')).toHaveCount(1);
  await expect(ownerList.locator(`code[title="${liveQuote}"]`)).toHaveCount(1);
  await expect(page.getByLabel('Environment')).toHaveCount(0);
});
