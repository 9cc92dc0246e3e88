// Loaded with `node --require` into a service process by test/scale/api-router.integration.test.ts:
// appends to MODULE_PROBE_FILE every module of Next's server build (.next/server/app/…) the
// process loads, so that the test can tell which route modules Next.js ever ran.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const marker = `${path.sep}.next${path.sep}server${path.sep}app${path.sep}`;
const load = Module._load;
Module._load = function probe(request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  let file = null;
  try {
    file = Module._resolveFilename(request, parent, isMain);
  } catch {
    // a builtin or an unresolvable request: not one of Next's
  }
  if (file && file.includes(marker)) fs.appendFileSync(process.env.MODULE_PROBE_FILE, `${file}\n`);
  return loaded;
};
