import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { demoExample } from '../../lib/books/demo-book';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { appUrl, screenshot, signIn } from '../support/portal';

const root = path.resolve(import.meta.dirname, '../..');

function verifyWithCli(receiptFile: string, keysFile: string) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/verify-receipt.ts'), receiptFile, '--keys', keysFile], { cwd: root, encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

test('a customer downloads the signed receipt of their price, and it verifies offline with the CLI', async ({ page, request }, testInfo) => {
  const tenant = await createTenant();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${appUrl()}/q/${tenant.businessId}`);
  await page.getByRole('radio', { name: /Window cleaning/ }).check();
  await page.getByLabel('Home size').selectOption({ label: '3 to 4 bedrooms' });
  await page.getByLabel('Storeys').selectOption({ label: 'Two storeys' });
  await page.getByLabel('Access').selectOption({ label: 'Easy: clear paths, no obstacles' });
  await page.getByRole('button', { name: 'Get my price' }).click();

  // The browser checks the signature itself, against the published keys.
  const status = page.locator('.quote-proof-status');
  await expect(status).toHaveAttribute('data-state', 'verified');
  // In plain words for a customer; the key that signed it is there on hover for whoever checks it.
  await expect(status).toHaveText(/^✓ Genuine: this price carries Business \w+’s digital seal, checked in your browser, so the figures are exactly as issued\.$/);
  await expect(status.locator('[title^="Ed25519 signature, key rsk_"]')).toHaveCount(1);
  await screenshot(page, 'hosted-signed-receipt');

  // Printed or saved as a PDF, the page is a receipt to keep: the business, the price in currency,
  // how it adds up, the validity and the quote reference, without the form and its buttons.
  const reference = await page.getByTestId('quote-reference').textContent();
  await page.emulateMedia({ media: 'print' });
  const receiptSection = page.getByRole('region', { name: /Your price/ });
  await expect(page.locator('.hosted-name')).toBeVisible();
  await expect(receiptSection.locator('.quote-headline-total')).toHaveText('$150.00');
  await expect(receiptSection.getByRole('table', { name: 'Price breakdown' })).toBeVisible();
  await expect(receiptSection.getByTestId('quote-validity')).toBeVisible();
  await expect(receiptSection.locator('.quote-reference')).toContainText(`Quote reference ${reference} · issued by Business`);
  for (const button of await page.getByRole('button').all()) await expect(button).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Get your price' })).toBeHidden();
  await screenshot(page, 'hosted-receipt-printed', { fullPage: true });
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('button', { name: 'Print or save as PDF' })).toBeVisible();

  // The signed file for software is named by the quote reference the page shows.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Signed file for software (JSON)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`quote-${reference}-signed-receipt.json`);
  const receiptFile = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(receiptFile);

  const keysFile = testInfo.outputPath('receipt-signing-keys.json');
  writeFileSync(keysFile, JSON.stringify(await (await request.get(`${appUrl()}/v1/receipt-signing-keys`)).json()));
  const verified = verifyWithCli(receiptFile, keysFile);
  expect(verified.status, verified.out).toBe(0);
  expect(verified.out).toContain('verified, signed by rsk_');

  // The file is the receipt of this quote; with its total changed it no longer verifies.
  const receipt = JSON.parse(readFileSync(receiptFile, 'utf8'));
  expect(receipt.quoteIntentId).toBe(reference);
  receipt.computation.totalMinor = 100;
  writeFileSync(receiptFile, JSON.stringify(receipt));
  const tampered = verifyWithCli(receiptFile, keysFile);
  expect(tampered.status).toBe(1);
  expect(tampered.out).toContain('altered field: computation.totalMinor');
});

test('a member recomputes a quote from its trace and sees which key signs receipts now', async ({ page, request }) => {
  const tenant = await createTenant();
  const owner = await createPerson(tenant, { businessRole: 'owner', permissions: ['logs:read', 'api_keys:create'] });
  const made = await request.post(`${appUrl()}/v1/public_quotes`, { data: { businessId: tenant.businessId, ...demoExample } });
  const quote = (await made.json()).data;

  await signIn(page, owner, `/portal/traces/${quote.quoteIntent.id}`);
  const proof = page.getByRole('region', { name: 'Proof' });
  await expect(proof.getByTestId('signature-status')).toContainText(`The signature checks out in this browser against key ${quote.quoteReceipt.signature.kid}`);
  await proof.getByRole('button', { name: 'Recompute' }).click();
  const result = proof.getByTestId('recompute-result');
  await expect(result).toContainText('Verified.');
  await expect(result).toContainText('comes out identical to its receipt');
  await screenshot(page, 'portal-trace-recompute');

  await page.goto(`${appUrl()}/portal/api-keys`);
  await expect(page.getByTestId('current-receipt-key')).toContainText(/Signing now: rsk_/);
});
