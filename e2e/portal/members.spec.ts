import { expect, test } from '@playwright/test';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn, signInWithForm } from '../support/portal';

const roster = (businessId: string, token: string) =>
  fetch(`${appUrl()}/v1/businesses/${businessId}/members`, { headers: { authorization: `Bearer ${token}` } });

test('an owner changes a role and removes a member, whose access ends at once', async ({ page }) => {
  const tenant = await createTenant();
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  const editor = await createPerson(tenant, { businessRole: 'editor' });
  const leaver = await createPerson(tenant, { businessRole: 'viewer' });
  expect((await roster(tenant.businessId, leaver.token)).status).toBe(200);

  await signIn(page, owner, `/portal/members?business=${tenant.businessId}`);
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
  for (const person of [owner, editor, leaver]) await expect(page.getByRole('row', { name: person.email })).toBeVisible();
  await screenshot(page, 'members-owner');

  // A role change asks first, names the person and what the role can do, then says it was saved.
  const editorRole = page.getByLabel(`Role of ${editor.email}`);
  await editorRole.selectOption('viewer');
  const change = page.getByRole('group', { name: `Change the role of ${editor.email}` });
  await expect(change).toContainText(`Make ${editor.email} a viewer? Sees the business’s quotes and traces`);
  await change.getByRole('button', { name: 'Cancel' }).click();
  await expect(editorRole).toHaveValue('editor');
  await editorRole.selectOption('viewer');
  await screenshot(page, 'members-role-confirm');
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/members/${editor.membershipId}`) && r.request().method() === 'PATCH'),
    change.getByRole('button', { name: 'Yes, make a viewer' }).click(),
  ]);
  await expect(page.getByRole('status').filter({ hasText: `Saved: ${editor.email} is now a viewer.` })).toBeVisible();
  await expect(editorRole).toHaveValue('viewer');
  const afterChange = await (await roster(tenant.businessId, owner.token)).json();
  expect(afterChange.data.members.find((m: { id: string }) => m.id === editor.membershipId).role).toBe('viewer');

  // The last owner can be neither demoted nor removed: the refusal shows in place, in words.
  const ownerRole = page.getByLabel(`Role of ${owner.email}`);
  await ownerRole.selectOption('editor');
  await page.getByRole('group', { name: `Change the role of ${owner.email}` }).getByRole('button', { name: 'Yes, make an editor' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('A business must keep at least one owner');
  await expect(ownerRole).toHaveValue('owner');
  await screenshot(page, 'members-last-owner-refused');

  await page.getByRole('button', { name: `Remove ${leaver.email}` }).click();
  const confirmation = page.getByRole('group', { name: `Remove ${leaver.email}` });
  await expect(confirmation).toContainText('Remove this member? Their access ends at once.');
  await expect(confirmation.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await screenshot(page, 'members-remove-confirm');
  await confirmation.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(page.getByRole('row', { name: leaver.email })).toHaveCount(0);

  const refused = await roster(tenant.businessId, leaver.token);
  expect(refused.status).toBe(404);
  expect((await refused.json()).error.code).toBe('not_found');
});

test('a viewer sees the roster read-only, with the reason', async ({ page }) => {
  const tenant = await createTenant();
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  const viewer = await createPerson(tenant, { businessRole: 'viewer' });

  await signIn(page, viewer, '/portal/members');
  await expect(page.getByRole('row', { name: owner.email })).toBeVisible();
  await expect(page.getByRole('row', { name: viewer.email })).toContainText('you');
  await expect(page.getByText('You are a viewer of this business. Only owners can change roles or remove members.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Role of/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await screenshot(page, 'members-viewer');
});

test('an owner invites by email; the invitation becomes membership when that person signs in', async ({ browser, page }) => {
  const tenant = await createTenant();
  const owner = await createPerson(tenant, { businessRole: 'owner' });
  const email = `invited-${Date.now()}@example.test`;

  await signIn(page, owner, `/portal/members?business=${tenant.businessId}`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('editor');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status')).toContainText(`Invited ${email}`);
  await expect(page.getByRole('row', { name: email })).toContainText('Invited');
  await screenshot(page, 'members-invited');

  const invitee = await browser.newPage();
  await signInWithForm(invitee, email, `/portal/members?business=${tenant.businessId}`);
  await expect(invitee.getByRole('row', { name: email })).toContainText('Active');
  await expect(invitee.getByText('You are an editor of this business')).toBeVisible();
  await invitee.close();
});
