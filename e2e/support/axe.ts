import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No serious or critical accessibility violation on the page (or in `include`), by axe-core. */
export async function expectNoSeriousViolations(page: Page, include?: string) {
  // Right after a navigation within the portal, under the whole suite's load, axe once found the
  // page without its <title> (the head is rendered again with the new route, after its content;
  // the trace shows the title back a moment later). A page that never gets one still fails here.
  await expect(page, 'the page has a title').toHaveTitle(/\S/);
  const builder = new AxeBuilder({ page });
  const results = await (include ? builder.include(include) : builder).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
}
