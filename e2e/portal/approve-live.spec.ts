import { expect, test, type Page } from '@playwright/test';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { createPerson, createTenant, testDb } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { heldQuote } from '../support/pipeline';
import { screenshot, signIn } from '../support/portal';

// Approving a held Live quote reaches a real customer and cannot be taken back: the portal asks
// once, in a dialog a keyboard works (focus on Cancel, Escape cancels, focus back on Approve).

async function approveWithKeyboard(page: Page, quoteId: string, who: string, width: number) {
  const approve = page.getByRole('button', { name: /^Approve the quote of/ });
  await expect(approve).toHaveText('Approve…');
  await approve.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /^Approve the quote of \$[\d.,]+\?$/ });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This is a Live quote for a real customer.');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousViolations(page);
  await screenshot(page, `review-approve-live-${who}-${width}`, { fullPage: false });
  if (width < 500) {
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  }

  // Escape cancels: nothing decided, focus back where it was.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(approve).toBeFocused();
  expect((await testDb().accountQuote.findUniqueOrThrow({ where: { id: quoteId } })).reviewDecision).toBeNull();

  // Asked again, Cancel by its button also decides nothing.
  await approve.press('Enter');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await testDb().accountQuote.findUniqueOrThrow({ where: { id: quoteId } })).reviewDecision).toBeNull();

  // Escape and at once Enter again, as someone changing their mind: asked again. (The dialog's
  // 'close' event comes a task after Escape, and Chrome runs input first: the Enter once reopened
  // nothing, and the late close then cancelled the question.)
  await approve.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Confirmed: approved, once.
  await approve.click();
  await dialog.getByRole('button', { name: 'Approve quote' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Approved the quote of/ })).toBeFocused();
  expect(await testDb().accountQuote.findUniqueOrThrow({ where: { id: quoteId } })).toMatchObject({ state: 'quoted', reviewDecision: 'approved' });
}

for (const [width, height] of [
  [1280, 900],
  [390, 844],
] as const) {
  for (const who of ['owner', 'workspaceAdmin'] as const) {
    test(`as ${who}: approving a Live quote asks once, and the keyboard can cancel it, at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
      const quoteId = await heldQuote(tenant);
      const person = await createPerson(tenant, who === 'owner' ? { businessRole: 'owner' } : { permissions: 'all' });
      await signIn(page, person, `/portal/review?business=${tenant.businessId}`);
      await approveWithKeyboard(page, quoteId, who, width);
    });
  }
}

test('editors and viewers see the held Live quote without Approve, at 1280 and 390 px', async ({ page }) => {
  const tenant = await createTenant({ artifact: { ...demoBookArtifact, autonomy: 'approval_first' } });
  await heldQuote(tenant);
  for (const role of ['editor', 'viewer'] as const) {
    const person = await createPerson(tenant, { businessRole: role });
    await page.context().clearCookies();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, person, `/portal/review?business=${tenant.businessId}`);
    await expect(page.getByRole('list', { name: 'Waiting for review' }).getByRole('article')).toHaveCount(1);
    await expect(page.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
    await screenshot(page, `review-live-${role}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, `review-live-${role}-390`);
  }
});
