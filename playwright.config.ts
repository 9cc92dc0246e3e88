import { defineConfig } from '@playwright/test';
import { launchOptions } from './e2e/support/browser';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: 'test-results/playwright',
  workers: 2,
  // Guards against a hung test, not speed checks (speed is the bench's). In CI the browser tests
  // share two cores with three other suites (load average up to 17): a page's first load, which
  // loads its modules, has taken over 10 s there. A step fails after 30 s, a test after 120 s.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: launchOptions(),
    // A failure keeps its last screenshot. Its trace (each action with the page's DOM before and
    // after, the network and the console) only with `npm run test:e2e:trace` (E2E_TRACE=1): it is
    // recorded for every test, passed or not, which cost the suite over a fifth of its CPU
    // (docs/performance.md), and CI keeps only the output, not the files. Never the screencast (a
    // picture of every frame the page paints): that cost another third.
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true } : 'off',
    screenshot: 'only-on-failure',
  },
});
