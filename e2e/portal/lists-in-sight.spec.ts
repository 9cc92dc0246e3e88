import { expect, test, type Page } from '@playwright/test';
import { demoExample } from '../../lib/books/demo-book';
import { createPerson, createTenant, type Person, type Tenant } from '../../lib/testing/factories';
import { startReceiver, type Receiver } from '../../lib/testing/https-receiver';
import { appUrl, screenshot, settle, signIn } from '../support/portal';

// Every portal page each role can reach, crawled from the navigation as the person would, without an
// error in the page: at 390 px
// each row's links, buttons and boxes are on the screen (lists become cards, nothing scrolls
// sideways), and at 1280 px no table scrolls sideways either.

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 900 };
const MAX_PAGES = 30; // per person: a guard against a crawl that runs away

/** One page per kind: a path segment that is not lower-case words (an id) is ':id'; queries do not count. */
const kindOf = (href: string) =>
  new URL(href, 'http://x')
    .pathname.split('/')
    .map((s) => (s === '' || /^[a-z]+(-[a-z]+)*$/.test(s) ? s : ':id'))
    .join('/');

type Layout = { sideways: string[]; offScreen: string[]; rowControls: number };

/** What a person cannot see without scrolling sideways: clipped scroll boxes, and row controls beyond the window. */
function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const sideways = [...document.querySelectorAll('main *')]
      .filter((el) => el.scrollWidth > el.clientWidth + 2 && /auto|scroll/.test(getComputedStyle(el).overflowX) && el.clientWidth > 40)
      .map((el) => `${el.getAttribute('aria-label') ?? el.querySelector('table')?.getAttribute('aria-label') ?? el.tagName}: ${el.scrollWidth - el.clientWidth} px hidden`);
    const controls = [...document.querySelectorAll<HTMLElement>('main tr :is(a, button, input, select)')].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(el).visibility !== 'hidden';
    });
    const offScreen = controls
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.left < -1 || box.right > window.innerWidth + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()} “${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}”`);
    return { sideways, offScreen, rowControls: controls.length };
  });
}

/**
 * Opens every page the person can reach from /portal (the nav's pages, then what they link to, then
 * one detail page of each kind), checks it at 390 then 1280 px, and returns the row controls seen per kind.
 */
async function crawl(page: Page, person: Person, who: keyof typeof kindsWithRows): Promise<Map<string, { controls: number; shown: string }>> {
  // Errors thrown in the page (a hydration mismatch, React #418, among them) fail the crawl.
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message.slice(0, 200)}`));
  await signIn(page, person);
  const queue = ['/portal'];
  const seen = new Set(queue.map(kindOf));
  const controlsByKind = new Map<string, { controls: number; shown: string }>();
  while (queue.length > 0 && controlsByKind.size < MAX_PAGES) {
    const href = queue.shift()!;
    await page.setViewportSize(PHONE);
    await page.goto(`${appUrl()}${href}`);
    await settle(page);
    // The deliveries' attempts are folded away: open the first row's, as someone checking a failure would.
    const showAttempts = page.getByRole('button', { name: 'Show attempts' }).first();
    if (await showAttempts.isVisible()) await showAttempts.click();
    // A list this person has rows in: its rows are what is checked, so wait for them as the person would.
    if ((kindsWithRows[who] as readonly string[]).includes(kindOf(href))) {
      await expect.poll(async () => (await layoutOf(page)).rowControls, { message: `${href} shows its rows` }).toBeGreaterThan(0).catch(() => undefined);
    }
    const phone = await layoutOf(page);
    // What the page said, for a list found without rows (an empty state, an error).
    const shown = phone.rowControls > 0 ? '' : (await page.getByRole('main').innerText()).replace(/\s+/g, ' ').slice(0, 600);
    await screenshot(page, `lists-${who}-390${kindOf(href).replace(/\W+/g, '-')}`);
    expect(phone.sideways, `${href} at 390 px: nothing scrolls sideways`).toEqual([]);
    expect(phone.offScreen, `${href} at 390 px: every row's controls are on the screen`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${href} fits a 390 px phone`).toBeLessThanOrEqual(PHONE.width);

    await page.setViewportSize(DESK);
    const desk = await layoutOf(page);
    expect(desk.sideways, `${href} at 1280 px: no table scrolls sideways`).toEqual([]);
    expect(desk.offScreen, `${href} at 1280 px: every row's controls are in the window`).toEqual([]);
    controlsByKind.set(kindOf(href), { controls: phone.rowControls, shown: `${href}: ${shown}` });

    const links = await page.locator('a[href^="/portal"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    for (const link of links) {
      const kind = kindOf(link);
      if (seen.has(kind)) continue;
      seen.add(kind);
      // Lists before details, so that each detail is taken from the first row of its list.
      if (kind.includes(':id')) queue.push(link);
      else queue.splice(queue.findIndex((q) => kindOf(q).includes(':id')) >>> 0, 0, link);
    }
  }
  expect(queue, `every page was checked (more than ${MAX_PAGES}?)`).toEqual([]);
  expect(pageErrors, 'no errors in the pages').toEqual([]);
  return controlsByKind;
}

let receiver: Receiver | undefined;
test.afterAll(async () => {
  await receiver?.stop();
});

let tenant: Tenant;
test.beforeAll(async () => {
  tenant = await createTenant();
  const admin = await createPerson(tenant, { permissions: 'all' });
  // Rows on every list: quotes (one priced, one needing answers), a delivery that failed once then
  // arrived (attempts), members, keys, versions, publications and the request log.
  receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
  const created = await fetch(`${appUrl()}/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ projectId: tenant.projectId, environment: 'live', url: receiver.url }),
  });
  expect(created.status).toBe(201);
  for (const storeys of ['2', null]) {
    const quote = await fetch(`${appUrl()}/v1/public_quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: tenant.businessId, ...demoExample, factors: { ...demoExample.factors, storeys } }),
    });
    expect(quote.status).toBe(201);
  }
  // A request that asked for a failure (Test-Fault): its row carries the "injected" mark.
  const injected = await fetch(`${appUrl()}/v1/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.keys.test}`, 'test-fault': 'rate_limited', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ businessId: tenant.businessId, bookId: tenant.bookId, ...demoExample }),
  });
  expect(injected.status).toBe(429);
  await createPerson(tenant, { businessRole: 'viewer' });
  await expect.poll(() => receiver!.received.length).toBeGreaterThan(0);
});

const kindsWithRows = {
  workspaceAdmin: ['/portal/quotes', '/portal/api-keys', '/portal/books/:id', '/portal/webhooks/deliveries', '/portal/request-logs'],
  owner: ['/portal/quotes', '/portal/members'], // only owners change roles and remove members
  editor: ['/portal/quotes'],
  viewer: ['/portal/quotes'],
  publisher: ['/portal/books/:id', '/portal/request-logs'],
} as const;

for (const who of Object.keys(kindsWithRows) as (keyof typeof kindsWithRows)[]) {
  test(`as ${who}: every list's rows and actions are in sight on a phone, and nothing scrolls sideways on a desk`, async ({ page }) => {
    test.setTimeout(120_000);
    const person = await createPerson(
      tenant,
      who === 'workspaceAdmin'
        ? { permissions: 'all' }
        : who === 'publisher'
          ? { permissions: ['books:edit', 'books:publish', 'logs:read'] }
          : { businessRole: who },
    );
    const controls = await crawl(page, person, who);
    // The lists this person works with were reached and had controls in their rows to check.
    for (const kind of kindsWithRows[who]) {
      const seen = controls.get(kind);
      expect(seen?.controls, `${kind} has row controls to check (the page showed: ${seen?.shown ?? 'not reached'})`).toBeGreaterThan(0);
    }
  });
}
