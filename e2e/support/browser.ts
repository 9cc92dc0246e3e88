import { existsSync } from 'node:fs';

// Debian's headless shell (scripts/install-browser.sh), else its full Chromium.
const chromium = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));

const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * How the browser tests launch Chromium. Their pages live for seconds: V8's optimising compilers
 * (Maglev, TurboFan) compile code there that runs a few times and is thrown away with the page.
 * Without them the suite checks the same behaviour for less CPU (4 December, the full suite
 * alone, four runs each, alternated: 232–242 core-s against 237–266, less in each neighbouring
 * pair). `optimisingJit` keeps them, for the spec that measures how fast a page is
 * (book-editor-performance).
 */
export function launchOptions({ optimisingJit = false } = {}) {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? chromium,
    args: optimisingJit ? args : [...args, '--js-flags=--no-opt --no-maglev'],
  };
}
