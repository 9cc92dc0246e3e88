import { expect, test, type Page } from '@playwright/test';
import { demoBookArtifact, demoExample } from '../../lib/books/demo-book';
import { createBookVersion } from '../../lib/books/create-book-version';
import { assignArm, type Assignment } from '../../lib/experiments/assignment';
import { pauseArm } from '../../lib/experiments/pause-arms';
import { describeGuardrail } from '../../lib/experiments/plain-words';
import type { ExperimentView } from '../../lib/experiments/schemas';
import { acceptanceGuardrail, type ArmTotals } from '../../lib/experiments/statistics';
import { issueFormToken } from '../../lib/leads/form-token';
import { rollUpExperimentAcceptances, rollUpExperimentQuotes } from '../../lib/experiments/store';
import { createPerson, createTenant, quoteRequest, testContext, testDb, type Person, type Tenant } from '../../lib/testing/factories';
import { expectNoSeriousViolations } from '../support/axe';
import { appUrl, expectFitsWidth, screenshot, signIn } from '../support/portal';

// An experiment shares a book's customers between its publication and other versions. Starting
// one changes real prices, so it asks once (a dialog a keyboard works); reading is for everyone.

/** A tenant (v1 published to Test and Live) with window cleaning 10% cheaper in version 2 (within the 20% an experiment allows by default). */
async function bookWithVariant(windowsMinor = 10_800) {
  const tenant = await createTenant();
  await versionWithWindowsAt(tenant, windowsMinor);
  return tenant;
}

/** Another version of the tenant's book, its window cleaning (120.00 in v1) at another base price. */
async function versionWithWindowsAt(tenant: Tenant, basePriceMinor: number): Promise<string> {
  const artifact = structuredClone(demoBookArtifact) as typeof demoBookArtifact;
  artifact.offerings[0].basePriceMinor = basePriceMinor;
  return (await createBookVersion(testContext(testDb()), { bookId: tenant.bookId, artifact })).id;
}

/** A call to the API as a signed-in member (the session token works as a bearer). */
async function asMember(person: Person, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${appUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${person.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: any; error?: any } };
}

/** A draft experiment in Live, 50/50 against one version, through the API. */
async function draftExperiment(tenant: Tenant, publisher: Person, name: string, versionId: string): Promise<ExperimentView> {
  const created = await asMember(publisher, 'POST', `/v1/books/${tenant.bookId}/experiments`, { environment: 'live', name, controlWeight: 50, variants: [{ versionId, weight: 50 }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.experiment;
}

async function startThroughApi(tenant: Tenant, publisher: Person, experiment: ExperimentView): Promise<ExperimentView> {
  const started = await asMember(publisher, 'POST', `/v1/books/${tenant.bookId}/experiments/${experiment.id}/start`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body.data.experiment;
}

const WIDTHS = [
  [1280, 900],
  [390, 844],
] as const;

async function runExperiment(page: Page, tenant: Tenant, width: number) {
  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  await signIn(page, publisher, `/portal/books/${tenant.bookId}#experiments`);
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
  // Where quotes come from: the customer-facing three by default; the team's own quotes left out.
  await expect(form.getByRole('checkbox', { name: /^Your quote page/ })).toBeChecked();
  await expect(form.getByRole('checkbox', { name: /^Your team’s quotes/ })).not.toBeChecked();
  await form.getByRole('checkbox', { name: /^Your website and apps/ }).uncheck();
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
  await expect(page.getByRole('definition').filter({ hasText: /^Your quote page and quotes customers commit to$/ })).toBeVisible();
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

  // While it runs, the book says why Live cannot be published to, and leads back to the experiment.
  await page.getByRole('link', { name: /experiments$/ }).click();
  await expect(page.getByTestId('publish-held-live')).toContainText('The experiment “Cheaper windows” is running in Live');
  await expect(page.getByRole('row', { name: 'Version 2' }).getByRole('button', { name: 'Publish to Live' })).toBeDisabled();
  await expectFitsWidth(page, width);
  await page.getByTestId('publish-held-live').getByRole('link', { name: 'Open the experiment' }).click();
  await expect(page.getByTestId('experiment-state')).toHaveText('Running');

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
  await expect(page.getByTestId('publish-held-live')).toHaveCount(0);
  await expect(page.getByRole('row', { name: 'Version 2' }).getByRole('button', { name: 'Publish to Live' })).toBeEnabled();
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
    await signIn(page, reader, `/portal/books/${tenant.bookId}#experiments`);
    const section = page.locator('section#experiments');
    // The book page's first answers: under the whole suite's load they took over 10 s once (as book-editor.spec.ts allows 30 s).
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

// A verdict ("B brings 12% more…") needs thousands of quotes: the browser is given such an answer
// (GET …/results as its contract types it) to show the words and the chart of a decided experiment.
// The promotion test below reads the real service's results.
test('a decided result reads at 1280 and 390 px: the sentence, the intervals, each version’s figures', async ({ page }) => {
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

  await signIn(page, publisher, `/portal/books/${tenant.bookId}/experiments/${experimentId}`);
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

test('a variant the guardrail paused says so on its row: since when, why, and that its customers get A’s prices', async ({ page }) => {
  const tenant = await bookWithVariant();
  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  const v2 = await testDb().bookVersion.findFirstOrThrow({ where: { bookId: tenant.bookId, number: 2 }, select: { id: true } });
  const experiment = await startThroughApi(tenant, publisher, await draftExperiment(tenant, publisher, 'Cheaper windows', v2.id));

  // What the minute job does when the guardrail fires (lib/experiments/pause-arms.ts), with its sentence.
  const arm = (quotes: number, acceptances: number): ArmTotals => ({
    quotes,
    acceptances,
    commitments: 0,
    wonLeads: 0,
    acceptedRevenue: { sum: 0n, sumOfSquares: 0n },
    committedRevenue: { sum: 0n, sumOfSquares: 0n },
    quotedPriceSum: 0n,
  });
  const check = acceptanceGuardrail(arm(600, 180), arm(600, 90), { marginPoints: 0.05 });
  expect(check.breached).toBe(true);
  const reason = describeGuardrail(check, { control: 'the control', variant: 'variant_1' });
  // In effect at once here (the job's minute ahead is for quotes being priced as it fires).
  const guarded = { ...experiment, workspaceId: tenant.workspaceId, projectId: tenant.projectId };
  expect(await pauseArm(testContext(testDb()), guarded, 'variant_1', reason, { takesEffectAfterMs: 0 })).toBe(true);

  await signIn(page, publisher, `/portal/books/${tenant.bookId}/experiments/${experiment.id}`);
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    const arms = page.getByRole('table', { name: 'Versions in the experiment' });
    await expect(arms.getByRole('row').nth(2)).toContainText('Paused');
    await expect(arms.getByRole('row').nth(2)).toContainText('quoted A’s prices since the pause');
    await expect(arms.getByRole('row').nth(1)).not.toContainText('Paused');
    const paused = page.getByTestId('paused-arms');
    await expect(paused).toContainText(/B \(v2\) was paused on \w/);
    await expect(paused).toContainText('B’s acceptance rate is more than 5 points below the control\'s');
    await expect(paused).toContainText('the customers in Live who would get B are quoted A’s prices (the control, v1)');
    await expect(paused).not.toContainText('variant_1');
    await expectFitsWidth(page, width);
    await expectNoSeriousViolations(page);
    await screenshot(page, `experiments-paused-${width}`);
  }
  await page.getByRole('link', { name: /experiments$/ }).click();
  await expect(page.getByRole('table', { name: 'Experiments in Live' })).toContainText('B (v2): 50% · paused');

  // Two quotes, both priced by A now, then the pricing person keeps A: nothing is published, the experiment ends with A as its winner.
  for (const arm of ['control', 'variant_1']) {
    const [subject] = subjectsIn(experiment, arm, 1, 'kept');
    const res = await fetch(`${appUrl()}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.live}`, 'content-type': 'application/json', 'quote-subject': subject },
      body: JSON.stringify(quoteRequest(tenant)),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: { quoteReceipt: { experiment: { arm: string } } } }).data.quoteReceipt.experiment.arm).toBe('control');
  }
  // Read afresh (the page reads results again once a minute, and its last answer had no quotes).
  await page.goto(`${appUrl()}/portal/books/${tenant.bookId}/experiments/${experiment.id}`);
  await page.getByRole('button', { name: 'Keep A · control (v1) and end…' }).click();
  const keep = page.getByRole('dialog', { name: 'Keep A and end “Cheaper windows”?' });
  await expect(keep).toContainText('Nothing is published: every new quote in Live is priced with Live’s publication (version 1).');
  await keep.getByRole('button', { name: 'Keep A and end' }).click();
  await expect(page.getByTestId('experiment-winner')).toBeFocused();
  await expect(page.getByTestId('experiment-winner')).toContainText(/A, the control \(v1\), was kept on \w.*Nothing new was published/);
  await expect(page.getByTestId('paused-arms')).toContainText('From then until the experiment ended, the customers in Live who would get B were quoted A’s prices');
  await expect(page.getByRole('table', { name: 'Figures per version' }).getByRole('row').nth(2).getByRole('cell').nth(1)).toHaveText('0');
  const book = await asMember(publisher, 'GET', `/v1/books/${tenant.bookId}`);
  expect(book.body.data.book.publications.live.versionId).toBe(tenant.versionId);
  await screenshot(page, 'experiments-kept-control-390');
});

test('a start the price guardrail refuses says which answers, both prices, the difference and the limit; another running experiment is named', async ({ page }) => {
  const tenant = await bookWithVariant(6_000); // windows 120.00 → 60.00: far beyond the 20% allowed
  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  const halfPrice = await testDb().bookVersion.findFirstOrThrow({ where: { bookId: tenant.bookId, number: 2 }, select: { id: true } });
  const refused = await draftExperiment(tenant, publisher, 'Half-price windows', halfPrice.id);

  await signIn(page, publisher, `/portal/books/${tenant.bookId}/experiments/${refused.id}`);
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.getByRole('button', { name: 'Start…' }).click();
    await page.getByRole('dialog', { name: /^Start/ }).getByRole('button', { name: 'Start experiment' }).click();
    const why = page.getByTestId('start-refused');
    await expect(why).toContainText(/Not started: B \(version 2\) asks \d+(\.\d+)?% less than A, and this experiment allows at most 20% either way\./);
    const facts = why.getByRole('definition');
    await expect(facts.nth(0)).toHaveText('Window cleaning');
    await expect(facts.nth(1)).toContainText('Home size: ');
    await expect(facts.nth(2)).toHaveText(/^\$\d+\.\d\d$/);
    await expect(facts.nth(3)).toHaveText(/^\$\d+\.\d\d$/);
    await expect(facts.nth(4)).toHaveText(/^−\d+(\.\d+)?%$/);
    await expect(facts.nth(5)).toHaveText('up to 20% more or less');
    await expect(why).toContainText('an example from the price book');
    await expect(why).toContainText('nobody’s price changed');
    await expect(page.getByTestId('experiment-state')).toHaveText('Draft');
    await expectFitsWidth(page, width);
    await expectNoSeriousViolations(page);
    await screenshot(page, `experiments-start-refused-${width}`);
    await page.reload();
  }
  await expect(page.getByTestId('start-refused')).toHaveCount(0); // a refusal is not stored: the page after a reload shows the draft alone

  // Two drafts within the limit; one starts elsewhere (another tab, a colleague) while this page is open.
  const close = await versionWithWindowsAt(tenant, 12_600);
  const waiting = await draftExperiment(tenant, publisher, 'Slightly dearer windows', close);
  const other = await draftExperiment(tenant, publisher, 'Dearer windows, first', close);
  await page.goto(`${appUrl()}/portal/books/${tenant.bookId}/experiments/${waiting.id}`);
  await expect(page.getByRole('button', { name: 'Start…' })).toBeEnabled();
  await startThroughApi(tenant, publisher, other);
  await page.getByRole('button', { name: 'Start…' }).click();
  await page.getByRole('dialog', { name: /^Start/ }).getByRole('button', { name: 'Start experiment' }).click();
  await expect(page.getByTestId('start-refused')).toHaveText('“Dearer windows, first” is already running in Live: one experiment runs at a time. Stop it first, then start this one.');
  await expect(page.getByRole('button', { name: 'Start…' })).toBeDisabled();
  await expect(page.getByTestId('start-waits')).toContainText('“Dearer windows, first” is running in Live: stop it before starting this one.');
  await page.getByTestId('start-refused').getByRole('link', { name: 'Dearer windows, first' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dearer windows, first' })).toBeVisible();
});

/** `count` subjects the experiment assigns to `arm` (hosted-page visitor ids are 22–64 of [A-Za-z0-9_-]). */
function subjectsIn(experiment: ExperimentView, arm: string, count: number, prefix: string): string[] {
  const definition = { id: experiment.id, salt: experiment.salt, arms: experiment.arms.map((a) => ({ name: a.name, versionId: a.versionId!, basisPoints: a.basisPoints })) };
  const found: string[] = [];
  for (let i = 0; found.length < count; i++) {
    const subject = `${prefix}-${arm}-${i}-${experiment.id.slice(0, 8)}-padding`;
    if ((assignArm(definition, { subject }) as Assignment).arm === arm) found.push(subject);
  }
  return found;
}

test('on the real service: quotes in both arms, the roll-up, the results read, B promoted to Live behind the typed phrase, the outcome after', async ({ page }) => {
  const tenant = await createTenant();
  const publisher = await createPerson(tenant, { permissions: ['books:edit', 'books:publish'] });
  // Windows 120.00 → 138.00 (+15%): within the 20% a start allows, beyond the 10% change the publish safeguard asks a phrase for.
  const dearer = await versionWithWindowsAt(tenant, 13_800);
  const experiment = await startThroughApi(tenant, publisher, await draftExperiment(tenant, publisher, 'Dearer windows', dearer));
  expect(experiment.arms.map((a) => a.versionId)).toEqual([tenant.versionId, dearer]);

  // Integration quotes by Quote-Subject, three in each arm; hosted-page quotes by visitor cookie, two in each,
  // of which A's customers accept one and B's both.
  const priced: Record<string, number[]> = { control: [], variant_1: [] };
  for (const arm of ['control', 'variant_1']) {
    for (const subject of subjectsIn(experiment, arm, 3, 'api')) {
      const res = await fetch(`${appUrl()}/v1/quotes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.keys.live}`, 'content-type': 'application/json', 'quote-subject': subject },
        body: JSON.stringify(quoteRequest(tenant)),
      });
      expect(res.status).toBe(201);
      const receipt = ((await res.json()) as { data: { quoteReceipt: { experiment: { arm: string }; computation: { totalMinor: number } } } }).data.quoteReceipt;
      expect(receipt.experiment.arm).toBe(arm);
      priced[arm].push(receipt.computation.totalMinor);
    }
  }
  const accepts = { control: 1, variant_1: 2 } as const;
  let client = 0;
  for (const arm of ['control', 'variant_1'] as const) {
    for (const [i, visitor] of subjectsIn(experiment, arm, 2, 'page').entries()) {
      const res = await fetch(`${appUrl()}/v1/public_quotes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `qps_visitor=${visitor}` },
        body: JSON.stringify({ businessId: tenant.businessId, ...demoExample }),
      });
      expect(res.status).toBe(201);
      const quote = ((await res.json()) as { data: { quoteIntent: { id: string }; quoteReceipt: { experiment: { arm: string } } } }).data;
      expect(quote.quoteReceipt.experiment.arm).toBe(arm);
      if (i >= accepts[arm]) continue;
      const accepted = await fetch(`${appUrl()}/v1/public_quotes/${quote.quoteIntent.id}/acceptance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${++client}` },
        body: JSON.stringify({
          businessId: tenant.businessId,
          contact: { name: 'Sam Okafor', email: `sam.${client}@example.test` },
          consent: true,
          formToken: issueFormToken(quote.quoteIntent.id, new Date(Date.now() - 5_000)),
        }),
      });
      expect(accepted.status).toBe(201);
    }
  }
  const [a, b] = [priced.control[0], priced.variant_1[0]];
  expect(b).toBeGreaterThan(a);

  // The minute job's roll-up, driven here without its five minutes' settling (as the results integration test does).
  expect(await rollUpExperimentQuotes(testDb(), 0)).toBeGreaterThanOrEqual(10);
  expect(await rollUpExperimentAcceptances(testDb(), 0)).toBeGreaterThanOrEqual(3);

  // A pricing person on a phone reads the results…
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, publisher, `/portal/books/${tenant.bookId}/experiments/${experiment.id}`);
  const panel = page.getByTestId('experiment-results');
  const figures = panel.getByRole('table', { name: 'Figures per version' });
  const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
  const expectFigures = async () => {
    await expect(figures.getByRole('row')).toHaveCount(3);
    // Version, quotes, accepted, committed, won, revenue per quote, acceptance rate, average price.
    await expect(figures.getByRole('row').nth(1).getByRole('cell')).toHaveText([/^A · control \(v1\)/, '5', '1', '0', '0', money(Math.round(a / 5)), '20%', money(a)]);
    await expect(figures.getByRole('row').nth(2).getByRole('cell')).toHaveText([/^B \(v2\)/, '5', '2', '0', '0', money(Math.round((2 * b) / 5)), '40%', money(b)]);
    await expect(panel.getByTestId('results-headline')).toContainText(/Not enough data yet: .*B brings \d+% more revenue per quote/);
    await expect(panel).not.toContainText('variant_1');
  };
  await expectFigures();
  await expectFitsWidth(page, 390);
  await screenshot(page, 'experiments-real-results-390');

  // …and keeps B: Live's safeguard measures the change on the last 7 days' quotes and asks for the phrase.
  await panel.getByRole('button', { name: 'Publish B (v2) to Live…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish version 2 to Live?' });
  await expect(dialog.getByTestId('publish-impact')).toBeVisible();
  const publish = dialog.getByRole('button', { name: 'Publish v2 to Live' });
  await expect(publish).toBeDisabled();
  await dialog.getByLabel('Type publish v2 to publish').fill('publish v2');
  await expectFitsWidth(page, 390);
  await screenshot(page, 'experiments-promote-390', { fullPage: false });
  await expect(publish).toBeEnabled();
  await publish.click();

  // The outcome takes the place of the buttons, and focus.
  const outcome = page.getByTestId('experiment-winner');
  await expect(outcome).toBeFocused();
  await expect(outcome).toContainText(/B \(v2\) won\. Version 2 was published to Live on \w.*, and the experiment ended/);
  await expect(page.getByTestId('experiment-state')).toHaveText('Concluded');
  await expect(page.getByRole('table', { name: 'Versions in the experiment' }).getByRole('row').nth(2)).toContainText('Winner');
  await expect(panel.getByRole('button', { name: /^Publish/ })).toHaveCount(0);

  // The service agrees: Live publishes B's version, the experiment is concluded with its winner.
  const book = await asMember(publisher, 'GET', `/v1/books/${tenant.bookId}`);
  expect(book.body.data.book.publications.live.versionId).toBe(dearer);
  expect(book.body.data.book.publications.test.versionId).toBe(tenant.versionId);
  const concluded = await asMember(publisher, 'GET', `/v1/books/${tenant.bookId}/experiments/${experiment.id}`);
  expect(concluded.body.data.experiment).toMatchObject({ state: 'concluded', winner: { arm: 'variant_1', versionId: dearer } });

  // The summary stays readable after the end, at both widths.
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await expectFigures();
    await expect(panel).toContainText('The experiment ended');
    await expect(panel.getByTestId('results-headline')).toContainText('It ended before there were enough quotes to tell');
    await expectFitsWidth(page, width);
    await expectNoSeriousViolations(page);
    await screenshot(page, `experiments-concluded-${width}`);
  }
  await page.getByRole('link', { name: /experiments$/ }).click();
  const live = page.getByRole('table', { name: 'Experiments in Live' });
  await expect(live.getByRole('row', { name: /Dearer windows/ })).toContainText('Concluded');
  await expect(live).toContainText('B (v2): 50% · winner');
});
