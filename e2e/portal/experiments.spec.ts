import { expect, test, type Page } from '@playwright/test';
import { demoBookArtifact } from '../../lib/books/demo-book';
import { createBookVersion } from '../../lib/books/create-book-version';
import { createPerson, createTenant, testContext, testDb, type Tenant } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { appUrl, expectFitsWidth, screenshot, signIn } from '../support/portal';

// An experiment shares a book's customers between its publication and other versions. Starting
// one changes real prices, so it asks once (a dialog a keyboard works); reading is for everyone.

/** A tenant (v1 published to Test and Live) with window cleaning 10% cheaper in version 2 (within the 20% an experiment allows by default). */
async function bookWithVariant() {
  const tenant = await createTenant();
  const cheaper = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
  cheaper.offerings[0].basePriceMinor = 10_800;
  await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact: cheaper });
  return tenant;
}

async function runExperiment(page: Page, tenant: Tenant, width: number) {
  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  await signIn(page, publisher.email, `/portal/books/${tenant.bookId}#experiments`);
  const section = page.locator('section#experiments');
  await expect(section.getByTestId('no-experiments')).toHaveText('No experiments on this book yet.');

  // The form: the control is Live's publication; choosing version 2 splits customers 50/50.
  await section.getByRole('button', { name: 'New experiment' }).click();
  const form = section.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Name').fill('Cheaper windows');
  await expect(form.getByTestId('experiment-control')).toContainText('version 1');
  await form.getByRole('checkbox', { name: /^Version 2/ }).check();
  await expect(form.getByTestId('weight-total')).toHaveText('Total: 100% ✓');

  // Shares that do not add up are refused before anything is sent, and say why.
  const variantShare = form.getByLabel('B (v2)');
  await variantShare.fill('40');
  await expect(form.getByTestId('weight-total')).toHaveText('The shares add up to 90%: they must add up to exactly 100%.');
  await form.getByRole('button', { name: 'Create draft experiment' }).click();
  await expect(page).toHaveURL(/#experiments$/);
  await form.getByLabel('A · control (v1)').fill('60');
  await expect(form.getByTestId('weight-total')).toHaveText('Total: 100% ✓');
  await expect(form.getByRole('radio', { name: /^Revenue per quote/ })).toBeChecked();
  await expectFitsWidth(page, width);
  await expectNoSeriousViolations(page, 'section#experiments');
  await screenshot(page, `experiments-form-${width}`);
  await form.getByRole('button', { name: 'Create draft experiment' }).click();

  // The draft's page: its versions and shares, no results yet.
  await expect(page.getByRole('heading', { level: 1, name: 'Cheaper windows' })).toBeVisible();
  const arms = page.getByRole('table', { name: 'Versions in the experiment' });
  await expect(arms.getByRole('row')).toHaveCount(3);
  await expect(arms).toContainText('60%');
  await expect(arms).toContainText('40%');
  await expect(page.getByTestId('experiment-results')).toContainText('Results appear once the experiment is started');

  // Start asks once; the keyboard can cancel it (focus on Cancel, Escape), then it starts.
  const start = page.getByRole('button', { name: 'Start…' });
  await start.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Start “Cheaper windows” in Live?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('start-sentence')).toHaveText(/From now on, 40% of customers in Live see version 2’s prices \(B\); the other 60% keep the prices of version 1/);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousViolations(page);
  await screenshot(page, `experiments-start-${width}`, { fullPage: false });
  if (width < 500) {
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(start).toBeFocused();
  expect((await testDb().experiment.findFirstOrThrow({ where: { bookId: tenant.bookId } })).state).toBe('draft');
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Start experiment' }).click();
  await expect(page.getByText('The experiment is running')).toBeVisible();
  await expect(page.getByTestId('experiment-state')).toHaveText('Running');

  // Results: none yet (or not on this service yet), said plainly.
  await expect(page.getByTestId('results-empty')).toHaveText(/Results appear once quotes are priced in this experiment/);
  await expectFitsWidth(page, width);
  await expectNoSeriousViolations(page);
  await screenshot(page, `experiments-running-${width}`);

  // Stop asks too.
  await page.getByRole('button', { name: 'Stop…' }).click();
  const stop = page.getByRole('dialog', { name: 'Stop “Cheaper windows”?' });
  await expect(stop).toContainText('version 1, the publication,');
  await stop.getByRole('button', { name: 'Stop experiment' }).click();
  await expect(page.getByText('The experiment is stopped')).toBeVisible();
  await expect(page.getByTestId('experiment-state')).toHaveText('Stopped');
  expect((await testDb().experiment.findFirstOrThrow({ where: { bookId: tenant.bookId } })).state).toBe('stopped');

  // Back on the book: listed under Live with its shares and dates.
  await page.getByRole('link', { name: /experiments$/ }).click();
  const live = page.getByRole('table', { name: 'Experiments in Live' });
  await expect(live.getByRole('row', { name: /Cheaper windows/ })).toContainText('Stopped');
  await expect(live).toContainText('A · control (v1): 60%');
  await expect(live).toContainText('B (v2): 40%');
  await expectFitsWidth(page, width);
  await screenshot(page, `experiments-list-${width}`);
}

test('a publisher creates, starts and stops a Live experiment at 1280 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await runExperiment(page, await bookWithVariant(), 1280);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('a publisher creates, starts and stops a Live experiment at 390 px', async ({ page }) => {
    await runExperiment(page, await bookWithVariant(), 390);
  });
});

test('a member who may not publish reads experiments without New, Start or Stop, and is told whom to ask', async ({ page }) => {
  const tenant = await bookWithVariant();
  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  const v2 = await testDb().bookVersion.findFirstOrThrow({ where: { bookId: tenant.bookId, number: 2 }, select: { id: true } });
  const created = await fetch(`${appUrl()}/v1/books/${tenant.bookId}/experiments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${publisher.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'live', name: 'Dearer gutters', controlWeight: 50, variants: [{ versionId: v2.id, weight: 50 }] }),
  });
  expect(created.status).toBe(201);
  const experimentId = (await created.json()).data.experiment.id as string;

  const reader = await createPerson(tenant, { permissions: ['books:edit'] });
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.context().clearCookies();
    await signIn(page, reader.email, `/portal/books/${tenant.bookId}#experiments`);
    const section = page.locator('section#experiments');
    await expect(section.getByRole('table', { name: 'Experiments in Live' })).toContainText('Dearer gutters');
    await expect(section.getByRole('button', { name: 'New experiment' })).toHaveCount(0);
    await expect(section.getByText('is for workspace members allowed to publish price books')).toBeVisible();
    await expectFitsWidth(page, width);

    await section.getByRole('link', { name: 'Dearer gutters' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dearer gutters' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start…' })).toHaveCount(0);
    await expect(page.getByText('Starting and stopping experiments is for workspace members allowed to publish price books')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/experiments/${experimentId}$`));
    await expectFitsWidth(page, width);
    await expectNoSeriousViolations(page);
    await screenshot(page, `experiments-reader-${width}`);
  }
});

// The results route is built beside this page: until it lands, the browser is given its answer
// (the shape agreed for GET …/results), so the panel is seen as a pricing person will see it.
test('results read at 1280 and 390 px: the sentence, the intervals, each version’s figures', async ({ page }) => {
  const tenant = await bookWithVariant();
  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  const v2 = await testDb().bookVersion.findFirstOrThrow({ where: { bookId: tenant.bookId, number: 2 }, select: { id: true } });
  const base = `${appUrl()}/v1/books/${tenant.bookId}/experiments`;
  const headers = { authorization: `Bearer ${publisher.token}`, 'content-type': 'application/json' };
  const created = await fetch(base, {
    method: 'POST',
    headers,
    body: JSON.stringify({ environment: 'live', name: 'Cheaper windows', controlWeight: 50, variants: [{ versionId: v2.id, weight: 50 }] }),
  });
  const experimentId = (await created.json()).data.experiment.id as string;
  expect((await fetch(`${base}/${experimentId}/start`, { method: 'POST', headers })).status).toBe(200);

  const arm = (name: string, versionId: string, quotes: number, acceptances: number, revenue: number) => ({
    name,
    versionId,
    quotes,
    acceptances,
    commitments: Math.round(acceptances / 2),
    wonLeads: Math.round(acceptances / 3),
    acceptedRevenueMinor: revenue,
    revenuePerQuoteMinor: revenue / quotes,
    acceptanceRate: acceptances / quotes,
    averagePriceMinor: 11_500,
    currency: 'USD',
  });
  const results = {
    experimentId,
    state: 'running',
    metric: 'revenue_per_quote',
    asOf: new Date().toISOString(),
    arms: [arm('control', tenant.versionId, 1210, 302, 3_473_000), arm('variant_1', v2.id, 1188, 356, 3_808_000)],
    comparisons: [
      {
        arm: 'variant_1',
        metric: 'revenue_per_quote',
        verdict: 'better',
        absolute: { estimate: 335, lower: 115, upper: 560 },
        relative: { estimate: 0.12, lower: 0.04, upper: 0.2 },
        moreQuotesPerArm: null,
        sentence: 'B brings 12% more revenue per quote than A (95%: between +4% and +20%)',
      },
      {
        arm: 'variant_1',
        metric: 'acceptance_rate',
        verdict: 'not_enough_data',
        absolute: { estimate: 0.05, lower: -0.01, upper: 0.11 },
        relative: { estimate: 0.2, lower: -0.04, upper: 0.44 },
        moreQuotesPerArm: 900,
        sentence: 'Not enough quotes yet to tell whether B and A differ in acceptances per quote',
      },
    ],
  };
  await page.route(`**/experiments/${experimentId}/results`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data: { results } }) }));

  await signIn(page, publisher.email, `/portal/books/${tenant.bookId}/experiments/${experimentId}`);
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    const panel = page.getByTestId('experiment-results');
    await expect(panel.getByTestId('results-headline')).toHaveText(/B brings 12% more revenue per quote/);
    await expect(panel.getByTestId('interval-chart')).toBeVisible();
    await expect(panel.getByRole('table', { name: 'Figures per version' }).getByRole('row')).toHaveCount(3);
    await expect(panel).toContainText('Acceptance rate: Not enough quotes yet');
    await expectFitsWidth(page, width);
    await expectNoSeriousViolations(page);
    await screenshot(page, `experiments-results-${width}`);
  }
});
