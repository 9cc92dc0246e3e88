import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const appUrl = () => process.env.APP_URL!;

/**
 * Opens `path` signed in as the person: their session's cookie, as a sign-in sets it (the sign-in
 * journeys have their own tests: the OIDC one in sign-in.spec, the form in members.spec).
 */
export async function signIn(page: Page, person: { token: string }, path = '/portal') {
  await page.context().addCookies([{ name: 'next-auth.session-token', value: person.token, url: appUrl(), httpOnly: true, sameSite: 'Lax' }]);
  await page.goto(`${appUrl()}${path}`);
  await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
}

/**
 * Waits until the portal page has rendered (its heading, `heading` when named) and is done
 * reading: the main region is busy while any of its queries is in flight (PortalMain), and a
 * main that is still empty says no "Loading" either.
 */
export async function settle(page: Page, heading?: string) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(main).toHaveAttribute('aria-busy', 'false');
  await expect(main).not.toContainText(/\bLoading\b/);
}

/** Signs in through the development sign-in form, as someone invited who has no session yet. */
export async function signInWithForm(page: Page, email: string, callbackUrl = '/portal') {
  await page.goto(`${appUrl()}/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in without a password' }).click();
  await expect(page.getByRole('navigation', { name: 'Portal' })).toBeVisible();
}

/**
 * Keeps a picture of the whole page, or with `{ fullPage: false }` of what the window shows, as
 * test-results/screenshots/<name>.png: with `npm run screenshots` (E2E_SCREENSHOTS=1) only, for
 * people to look at. Encoding some 80 full pages costs the browser suite 15–25 s of 2 cores.
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  if (!process.env.E2E_SCREENSHOTS) return;
  const dir = path.resolve(import.meta.dirname, '../../test-results/screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}

/** The session cookie's value: the same token works as `Authorization: Bearer` on /v1. */
export async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'next-auth.session-token');
  expect(cookie, 'session cookie').toBeTruthy();
  return cookie!.value;
}

/**
 * The secret a one-time-secret panel shows (API keys, webhook signing secrets): checks the panel
 * has focus and warns, copies it, then "Done" must remove it from the page.
 */
export async function takeOneTimeSecret(page: Page, heading: RegExp, secretLabel: string, screenshotName: string) {
  const panel = page.getByRole('region', { name: heading });
  await expect(panel).toBeFocused();
  await expect(panel).toContainText('it will not be shown again');
  const secret = await panel.getByLabel(secretLabel).inputValue();
  await panel.getByRole('button', { name: 'Copy' }).click();
  await expect(panel.getByText('Copied to your clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await screenshot(page, screenshotName);
  await panel.getByRole('button', { name: 'Done, I have stored it' }).click();
  await expect(panel).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  return secret;
}

// The JSON view's editor is CodeMirror, which draws only the lines on screen: its text is read
// from the editor's state (the view CodeMirror keeps on its content element, as
// EditorView.findFromDOM finds it), and replaced as a person would: select all, then paste.
type CodeMirrorContent = {
  cmTile: {
    root: {
      view: {
        state: { doc: { toString(): string }; sliceDoc(from: number, to: number): string; selection: { main: { from: number; to: number } } };
        dispatch(transaction: { selection: { anchor: number }; scrollIntoView: boolean }): void;
        focus(): void;
      };
    };
  };
};

export const jsonEditor = (page: Page) => page.getByRole('textbox', { name: 'Price book (JSON)' });

export function jsonText(page: Page): Promise<string> {
  return jsonEditor(page).evaluate((element) => (element as unknown as CodeMirrorContent).cmTile.root.view.state.doc.toString());
}

export function jsonSelection(page: Page): Promise<string> {
  return jsonEditor(page).evaluate((element) => {
    const { state } = (element as unknown as CodeMirrorContent).cmTile.root.view;
    return state.sliceDoc(state.selection.main.from, state.selection.main.to);
  });
}

export async function replaceJsonText(page: Page, text: string) {
  await jsonEditor(page).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
  await expect.poll(() => jsonText(page)).toBe(text);
}

/** Puts the cursor just before the first occurrence of `text` in the JSON, as a click there would. */
export async function placeJsonCursor(page: Page, text: string) {
  await jsonEditor(page).evaluate((element, text) => {
    const { view } = (element as unknown as CodeMirrorContent).cmTile.root;
    const at = view.state.doc.toString().indexOf(text);
    if (at < 0) throw new Error(`${text} is not in the JSON`);
    view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    view.focus();
  }, text);
}

/**
 * That the page is no wider than `width`: polled, since after a resize a chart or a card takes a
 * frame or two (ResizeObserver) to lay itself out again.
 */
export async function expectFitsWidth(page: Page, width: number): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `the page fits ${width} px` }).toBeLessThanOrEqual(width);
}
