import { createHmac } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createPerson, createTenant, testContext, testDb, type Tenant } from '../../lib/testing/factories';
import { startReceiver, type Behaviour, type Received, type Receiver } from '../../lib/testing/https-receiver';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { appUrl, screenshot, sessionToken, signIn, takeOneTimeSecret } from '../support/portal';

const windowCleaning = {
  offeringId: 'window_cleaning',
  factors: { home_size: 'medium', storeys: '2', frequency: 'monthly', access: 'difficult' },
};

async function quoteWithLiveKey(tenant: Tenant): Promise<string> {
  const res = await fetch(`${appUrl()}/v1/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.keys.live}`, 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, bookId: tenant.bookId, ...windowCleaning }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
}

const header = (request: Received, name: string) => String(request.headers[name.toLowerCase()] ?? '');
const eventOf = (request: Received) => JSON.parse(request.rawBody) as { id: string; type: string; data: Record<string, unknown> };

/** The v1 values of a delivery's Service-Signature, each checked here without the service's code. */
function signaturesOf(request: Received) {
  const parts = header(request, 'Service-Signature').split(',').map((part) => part.split('='));
  const t = parts.find(([key]) => key === 't')?.[1] ?? '';
  expect(Math.abs(Date.now() / 1000 - Number(t))).toBeLessThan(300);
  const v1 = parts.filter(([key]) => key === 'v1').map(([, value]) => value);
  const hmac = (secret: string) => createHmac('sha256', secret).update(`${t}.${request.rawBody}`).digest('hex');
  return { v1, signedWith: (secret: string) => v1.includes(hmac(secret)) };
}

/** The first request whose envelope passes `match`, once the receiver has it. */
async function receivedWhere(receiver: Receiver, match: (request: Received) => boolean): Promise<Received> {
  await expect.poll(() => receiver.received.some(match)).toBe(true);
  return receiver.received.find(match)!;
}

async function takeSigningSecret(page: Page, heading: RegExp, screenshotName: string) {
  const secret = await takeOneTimeSecret(page, heading, 'Signing secret', screenshotName);
  expect(secret).toMatch(/^whsec_/);
  return secret;
}

const masked = (secret: string) => `${secret.slice(0, 10)}…${secret.slice(-4)}`;
const endpointCard = (page: Page, receiver: Receiver) => page.getByRole('article', { name: `Endpoint ${receiver.url}` });
const deliveryRows = (page: Page): Locator => page.getByRole('table', { name: 'Deliveries' }).locator('tbody > tr[aria-label]');

let receiver: Receiver | undefined;
test.afterEach(async () => {
  await receiver?.stop();
  receiver = undefined;
});

test('a Live endpoint gets signed deliveries; a failure is replayed; rotation signs twice; disabled gets nothing', async ({ page, context }) => {
  test.setTimeout(150_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl() });
  let answer: Behaviour = 500;
  receiver = await startReceiver(() => answer);
  const tenant = await createTenant();
  const manager = await createPerson(tenant, { permissions: ['webhooks:manage'] });

  await signIn(page, manager, `/portal/webhooks?project=${tenant.projectId}`);
  await expect(page.getByText('This project has no webhook endpoints yet.')).toBeVisible();
  await screenshot(page, 'webhooks-empty');

  // Add: a plain-http URL is refused in place; the fix clears the message.
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByLabel('URL', { exact: true })).toBeFocused();
  await page.getByLabel('URL', { exact: true }).fill(receiver.url.replace('https:', 'http:'));
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByText('This URL must use https://.')).toBeVisible();
  await expect(page.getByLabel('URL', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'webhooks-add-refused');
  await page.getByLabel('URL', { exact: true }).fill(receiver.url);
  await expect(page.getByText('This URL must use https://.')).toHaveCount(0);
  await page.getByRole('radio', { name: /^Live/ }).check();
  await page.getByLabel('Description (optional)').fill('Browser test receiver');
  await page.getByRole('button', { name: 'Add endpoint' }).click();

  const secret = await takeSigningSecret(page, /signing secret of your new Live endpoint/, 'webhooks-secret-created');
  const card = endpointCard(page, receiver);
  await expect(card).toContainText('All events');
  await expect(card).toContainText('Enabled');
  await expect(card).toContainText(masked(secret));
  await expect(card.getByText('Live', { exact: true })).toBeVisible();

  // A test event: the receiver refuses it (500); the signature checks out with the secret.
  await card.getByRole('button', { name: 'Send test event' }).click();
  await expect(card.getByRole('status')).toContainText('Test event queued.');
  const refused = await receivedWhere(receiver, (r) => eventOf(r).type === 'webhook.test');
  expect(header(refused, 'Service-Event-Id')).toBe(eventOf(refused).id);
  expect(signaturesOf(refused).v1).toHaveLength(1);
  expect(signaturesOf(refused).signedWith(secret)).toBe(true);
  await screenshot(page, 'webhooks-endpoint');

  await card.getByRole('link', { name: 'Watch its delivery' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook deliveries' })).toBeVisible();
  await expect(page.getByLabel('Event', { exact: true })).toHaveValue('webhook.test');
  const original = deliveryRows(page).first();
  await expect(original).toContainText(/Retrying at \d/); // pending after a failed attempt, with the retry's time
  await expect(original.locator('td').nth(2)).toHaveText('1');
  await original.getByRole('button', { name: 'Show attempts' }).click();
  const firstAttempts = page.getByRole('table', { name: /^Attempts of delivery/ });
  await expect(firstAttempts).toContainText('500');
  await expect(firstAttempts).toContainText('answered 500');
  await expect(firstAttempts).toContainText('receiver says no');
  // What was sent and what came back, header by header.
  await firstAttempts.getByText('Headers').first().click();
  await expect(firstAttempts.getByLabel('Sent headers').first()).toContainText('Service-Attempt: 1');
  await expect(firstAttempts.getByLabel('Sent headers').first()).toContainText('Service-Signature: t=');
  await expect(firstAttempts.getByLabel('Answered headers').first()).toContainText('content-type: text/plain');
  await screenshot(page, 'webhooks-deliveries-failed');

  // While it still retries on its own, Replay is not offered: the event would arrive twice.
  await expect(page.getByTestId('replay-later')).toContainText('Replay is offered once this delivery arrives or gives up');
  await expect(page.getByRole('button', { name: 'Replay' })).toHaveCount(0);
  // It gives up (the schedule takes hours: the test moves it on); the list updates by itself.
  await testDb().webhookDelivery.update({ where: { id: header(refused, 'Service-Delivery-Id') }, data: { status: 'exhausted', nextAttemptAt: null } });

  // Replay: the receiver now accepts; the new delivery is linked to the original and succeeds.
  answer = 200;
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByText('Replay queued as a new delivery.')).toBeVisible();
  const replayed = await receivedWhere(receiver, (r) => r !== refused && header(r, 'Service-Event-Id') === header(refused, 'Service-Event-Id'));
  expect(header(replayed, 'Service-Delivery-Id')).not.toBe(header(refused, 'Service-Delivery-Id'));
  expect(signaturesOf(replayed).signedWith(secret)).toBe(true);
  const replayRow = deliveryRows(page).filter({ hasText: 'replay of delivery' });
  await expect(replayRow).toContainText('Succeeded'); // the list refreshes by itself while one is pending
  await screenshot(page, 'webhooks-deliveries-replayed');
  await page.getByRole('link', { name: 'Open the replay' }).click();
  await expect(page.getByRole('heading', { name: 'Delivery of webhook.test' })).toBeVisible();
  await expect(page.getByText('Succeeded', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: header(refused, 'Service-Delivery-Id') })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Attempts' })).toContainText('200');
  await expect(page.getByRole('link', { name: receiver.url })).toBeVisible();
  await screenshot(page, 'webhooks-delivery-page');

  // A real quote with the Live key: its quote_intent.succeeded event reaches the receiver and its trace.
  const quoteId = await quoteWithLiveKey(tenant);
  const quoted = await receivedWhere(receiver, (r) => eventOf(r).type === 'quote_intent.succeeded');
  expect(signaturesOf(quoted).signedWith(secret)).toBe(true);
  await page.goto(`${appUrl()}/portal/traces/${quoteId}`);
  const quoteEvent = page.getByRole('article', { name: 'Event quote_intent.succeeded' });
  await expect(async () => {
    await page.reload();
    await expect(quoteEvent.getByRole('table', { name: 'Webhook deliveries' })).toContainText('Succeeded', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // The delivery names its endpoint by URL, and links to its own page.
  const traceRow = quoteEvent.getByRole('row').filter({ hasText: receiver.url });
  await expect(traceRow).toContainText('Succeeded');
  await traceRow.getByRole('link', { name: 'Details' }).click();
  await expect(page.getByRole('heading', { name: 'Delivery of quote_intent.succeeded' })).toBeVisible();
  await page.goBack();
  await screenshot(page, 'webhooks-quote-trace');

  // Rotate with the default overlap of 24 hours: the next delivery carries a v1 for each secret.
  await page.goto(`${appUrl()}/portal/webhooks?project=${tenant.projectId}`);
  await card.getByRole('button', { name: 'Rotate secret…' }).click();
  const overlap = page.getByLabel('Keep the old secret signing for');
  await expect(overlap).toBeFocused();
  await expect(overlap).toHaveValue(String(24 * 60));
  await screenshot(page, 'webhooks-rotate');
  await page.getByRole('button', { name: 'Rotate secret', exact: true }).click();
  await expect(page.getByText(/every delivery is signed with both the old and the new secret/)).toBeVisible();
  const rotatedSecret = await takeSigningSecret(page, /new signing secret of 127\.0\.0\.1/, 'webhooks-secret-rotated');
  expect(rotatedSecret).not.toBe(secret);
  await expect(card).toContainText(masked(rotatedSecret));
  await expect(card).toContainText('the old secret also signs until');
  const before = receiver.received.length;
  await card.getByRole('button', { name: 'Send test event' }).click();
  const duringOverlap = await receivedWhere(receiver, (r) => receiver!.received.indexOf(r) >= before && eventOf(r).type === 'webhook.test');
  expect(signaturesOf(duringOverlap).v1).toHaveLength(2);
  expect(signaturesOf(duringOverlap).signedWith(rotatedSecret)).toBe(true);
  expect(signaturesOf(duringOverlap).signedWith(secret)).toBe(true);

  // Disabled: a quote's event is fanned out to nobody and nothing reaches the receiver.
  await card.getByRole('button', { name: `Disable ${receiver.url}` }).click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.getByRole('button', { name: 'Yes, disable' }).click();
  await expect(card).toContainText('Disabled: it receives nothing until you enable it again.');
  await expect(card.getByRole('button', { name: 'Send test event' })).toHaveCount(0);
  await screenshot(page, 'webhooks-disabled');
  const whileDisabled = await quoteWithLiveKey(tenant);
  const event = () =>
    testDb().outboxEvent.findFirst({
      where: { data: { path: ['quoteIntent', 'id'], equals: whileDisabled } },
      select: { id: true, dispatchedAt: true },
    });
  await expect.poll(async () => (await event())?.dispatchedAt ?? null).not.toBeNull();
  const { id: disabledEventId } = (await event())!;
  expect(await testDb().webhookDelivery.count({ where: { eventId: disabledEventId } })).toBe(0);
  await page.waitForTimeout(1_000); // several runner ticks
  expect(receiver.received.filter((r) => header(r, 'Service-Event-Id') === disabledEventId)).toHaveLength(0);

  // Delete, after confirming: the endpoint leaves the list.
  await card.getByRole('button', { name: `Delete ${receiver.url}` }).click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByText('This project has no webhook endpoints yet.')).toBeVisible();

  // The quote's trace still names where its delivery went, and says that endpoint is gone.
  await page.goto(`${appUrl()}/portal/traces/${quoteId}`);
  await expect(quoteEvent.getByRole('row').filter({ hasText: receiver.url })).toContainText('(endpoint deleted)');
  await screenshot(page, 'webhooks-quote-trace-endpoint-deleted');
});

test('deliveries of an endpoint page by cursor and filter by status', async ({ page }) => {
  const tenant = await createTenant();
  const manager = await createPerson(tenant, { permissions: ['webhooks:manage'] });
  await signIn(page, manager, `/portal/webhooks/deliveries?project=${tenant.projectId}`);
  await expect(page.getByText('This project has no webhook endpoints, so nothing has been delivered.')).toBeVisible();

  // 27 test deliveries, more than one page, canceled when their endpoint is disabled.
  const token = await sessionToken(page);
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${appUrl()}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const created = await call('POST', '/v1/webhook-endpoints', {
    projectId: tenant.projectId,
    environment: 'test',
    url: 'https://hooks.example.com/q',
  });
  expect(created.status).toBe(201);
  const endpointId = created.body.data.endpoint.id as string;
  for (let i = 0; i < 27; i++) expect((await call('POST', `/v1/webhook-endpoints/${endpointId}/test-events`)).status).toBe(201);
  expect((await call('PATCH', `/v1/webhook-endpoints/${endpointId}`, { status: 'disabled' })).status).toBe(200);
  // A send already in flight is recorded first (and then canceled: its endpoint has no name).
  const canceled = async () => (await call('GET', `/v1/webhook-deliveries?endpointId=${endpointId}&status=canceled&limit=100`)).body.data.deliveries.length;
  await expect.poll(canceled).toBe(27);

  await page.reload();
  await expect(page.getByLabel('Endpoint', { exact: true })).toHaveValue(endpointId);
  await expect(page.getByLabel('Endpoint', { exact: true })).toContainText('https://hooks.example.com/q (Test, disabled)');
  await expect(page.getByText('This endpoint is disabled: nothing is sent to it')).toBeVisible();
  await expect(deliveryRows(page)).toHaveCount(25);
  await page.getByRole('button', { name: 'Show older deliveries' }).click();
  await expect(deliveryRows(page)).toHaveCount(27);
  await expect(page.getByRole('button', { name: 'Show older deliveries' })).toHaveCount(0);
  await expect(deliveryRows(page).first()).toContainText('Canceled');
  await screenshot(page, 'webhooks-deliveries-paged');

  await page.getByLabel('Status', { exact: true }).selectOption('succeeded');
  await expect(page).toHaveURL(/status=succeeded/);
  await expect(page.getByText('No deliveries of this endpoint match these filters.')).toBeVisible();
});

test('without webhooks:manage the page says who can help', async ({ page }) => {
  const tenant = await createTenant();
  const reader = await createPerson(tenant, { permissions: ['logs:read'] });
  // Not a page they can use, so not in the navigation; opened by its address, it says who can help.
  await signIn(page, reader, '/portal/webhooks');
  await expect(page.getByTestId('needs-access')).toContainText('Webhooks are set up by workspace members allowed to manage them.');
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
  // So does the deliveries page, rather than saying they belong to no workspace.
  await page.goto(`${appUrl()}/portal/webhooks/deliveries`);
  await expect(page.getByTestId('needs-access')).toContainText('Webhook deliveries are seen by workspace members allowed to manage webhooks.');
});

test('an endpoint is edited in place: URL, events and description change, its secret and environment stay', async ({ page }) => {
  const tenant = await createTenant();
  const manager = await createPerson(tenant, { permissions: ['webhooks:manage'] });
  const asManager = testContext(testDb(), { principal: manager.principal });
  const created = await createEndpoint(asManager, { projectId: tenant.projectId, environment: 'test', url: 'https://hooks.example.com/old' });
  await signIn(page, manager, `/portal/webhooks?project=${tenant.projectId}`);

  const card = page.getByRole('article', { name: 'Endpoint https://hooks.example.com/old' });
  await card.getByRole('button', { name: 'Edit…' }).click();
  const form = card.getByRole('form', { name: 'Edit endpoint' });
  await expect(form.getByLabel('URL', { exact: true })).toBeFocused();
  await expect(form.getByLabel('URL', { exact: true })).toHaveValue('https://hooks.example.com/old');
  await expect(form.getByText('Environment: Test')).toBeVisible();
  await form.getByLabel('URL', { exact: true }).fill('https://hooks.example.com/new');
  await form.getByRole('checkbox', { name: /quote_intent\.succeeded/ }).check();
  await form.getByLabel('Description (optional)').fill('CRM sync');
  await screenshot(page, 'webhooks-edit');
  await form.getByRole('button', { name: 'Save changes' }).click();

  const edited = page.getByRole('article', { name: 'Endpoint https://hooks.example.com/new' });
  await expect(edited).toContainText('CRM sync');
  await expect(edited.getByRole('listitem')).toHaveText(['quote_intent.succeeded']);
  await expect(edited.getByRole('button', { name: 'Edit…' })).toBeFocused();
  const stored = await testDb().webhookEndpoint.findUniqueOrThrow({ where: { id: created.endpoint.id } });
  expect(stored).toMatchObject({ url: 'https://hooks.example.com/new', eventTypes: ['quote_intent.succeeded'], description: 'CRM sync' });
  expect(stored.secretLast4).toBe(created.secret.slice(-4));
});

test('a failing endpoint shows its health and retries; its exhausted deliveries are replayed in one go after a count', async ({ page }) => {
  let healthy = false;
  receiver = await startReceiver(() => (healthy ? 200 : 503));
  const tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
  const { endpoint } = await createEndpoint(testContext(testDb(), { principal: admin.principal }), {
    projectId: tenant.projectId,
    environment: 'live',
    url: receiver.url,
    eventTypes: ['quote_intent.succeeded'],
  });
  for (let i = 0; i < 3; i++) await quoteWithLiveKey(tenant);
  await expect.poll(() => receiver!.received.length).toBe(3);

  // The first attempts failed: the deliveries wait for their retry, and say when it comes.
  await signIn(page, admin, `/portal/webhooks/deliveries?endpoint=${endpoint.id}`);
  await expect(deliveryRows(page)).toHaveCount(3);
  await expect(deliveryRows(page).first()).toContainText(/Retrying at \d/);
  await screenshot(page, 'webhooks-retrying');

  // Two of them have since failed five times (the schedule takes hours: the test moves them on).
  const ids = (await testDb().webhookDelivery.findMany({ where: { endpointId: endpoint.id }, orderBy: { createdAt: 'asc' }, select: { id: true } })).map((d) => d.id);
  await testDb().webhookDelivery.updateMany({ where: { id: { in: ids.slice(0, 2) } }, data: { status: 'exhausted', attemptCount: 5, nextAttemptAt: null } });
  await testDb().webhookDelivery.update({ where: { id: ids[2] }, data: { nextAttemptAt: new Date(Date.now() + 3_600_000) } });

  await page.goto(`${appUrl()}/portal/webhooks?project=${tenant.projectId}`);
  const card = endpointCard(page, receiver);
  await expect(card.getByTestId('endpoint-health')).toContainText('0% of 3 attempts answered 2xx in the last 24 hours');
  await expect(card.getByTestId('endpoint-health')).toContainText('1 retrying, 2 exhausted');
  await expect(card.getByTestId('endpoint-health')).toContainText('Last failure');

  // Someone fixing the endpoint narrows the list to what is failing: retrying or given up, not what arrived.
  await quoteWithLiveKey(tenant);
  await expect.poll(() => receiver!.received.length).toBe(4);
  const fourth = await testDb().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id, id: { notIn: ids } } });
  await testDb().webhookDelivery.update({ where: { id: fourth.id }, data: { status: 'succeeded', nextAttemptAt: null } });
  await page.goto(`${appUrl()}/portal/webhooks/deliveries?endpoint=${endpoint.id}&status=failing`);
  await expect(page.getByLabel('Status')).toHaveValue('failing');
  await expect(deliveryRows(page)).toHaveCount(3);
  await page.getByLabel('Status').selectOption({ label: 'Succeeded' });
  await expect(deliveryRows(page)).toHaveCount(1);
  await page.goto(`${appUrl()}/portal/webhooks?project=${tenant.projectId}`);

  healthy = true;
  await card.getByRole('button', { name: 'Replay failed…' }).click();
  const form = page.getByRole('form', { name: `Replay failed deliveries to ${receiver.url}` });
  await expect(form.getByTestId('bulk-replay-count')).toHaveText('2 deliveries from the last 24 hours that did not get through will be sent again.');
  await screenshot(page, 'webhooks-bulk-replay');
  await form.getByRole('button', { name: 'Replay 2' }).click();
  await expect(form.getByTestId('bulk-replay-count')).toHaveText('2 deliveries were queued again; each is linked to its original.');
  await expect.poll(() => receiver!.received.length).toBe(6);
  const replays = await testDb().webhookDelivery.findMany({ where: { replayOfId: { in: ids.slice(0, 2) } } });
  expect(replays).toHaveLength(2);
  await form.getByRole('button', { name: 'Done' }).click();

  // What each event means, with an example delivery of each.
  await page.getByRole('link', { name: 'event catalogue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Event catalogue' })).toBeVisible();
  const section = page.getByRole('region', { name: 'quote_intent.succeeded' });
  await section.getByText('Example delivery').click();
  await expect(section.getByLabel('Example quote_intent.succeeded delivery')).toContainText('"type": "quote_intent.succeeded"');
  await screenshot(page, 'webhooks-event-catalogue');
});

test('a Test endpoint fails on demand: its first attempt answers 503 without being sent, the retry 2 s later reaches it', async ({ page }) => {
  receiver = await startReceiver();
  const tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: ['webhooks:manage'] });
  const { endpoint } = await createEndpoint(testContext(testDb(), { principal: admin.principal }), { projectId: tenant.projectId, environment: 'test', url: receiver.url });
  await signIn(page, admin, `/portal/webhooks?project=${tenant.projectId}`);

  const card = endpointCard(page, receiver);
  await card.getByRole('button', { name: 'Test failures…' }).click();
  const form = card.getByRole('form', { name: `Test failures of ${receiver.url}` });
  await form.getByLabel('Attempts').selectOption('status');
  await form.getByLabel('Status (300–599)').fill('503');
  await form.getByLabel(/For the next/).fill('1');
  await form.getByRole('checkbox', { name: /Retry after 2 seconds/ }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  const setting = card.getByTestId('test-failure-setting');
  await expect(setting).toContainText('Answers 503 to the next attempt');
  await expect(setting).toContainText('Compressed retries');
  await screenshot(page, 'webhooks-test-failures');

  await card.getByRole('button', { name: 'Send test event' }).click();
  await expect.poll(() => receiver!.received.length).toBe(1);
  const attempts = await testDb().webhookAttempt.findMany({ where: { delivery: { endpointId: endpoint.id } }, orderBy: { number: 'asc' } });
  expect(attempts.map((a) => a.responseStatus)).toEqual([503, 200]);
  expect(attempts[0].responseExcerpt).toMatch(/^Simulated/);
  // The setting ran out with its one failure.
  await page.reload();
  await expect(endpointCard(page, receiver).getByTestId('test-failure-setting')).toContainText('Compressed retries');
  await expect(endpointCard(page, receiver).getByTestId('test-failure-setting')).not.toContainText('Answers 503');
});
