// A fixed piece of CPU work, to tell whether a run was slow or the machine was: timings taken on
// different days (docs/performance.md) compare only with this figure beside them.
// `node bench/machine-speed.mjs`: 2,000,000 chained SHA-256 digests, three times.
import { createHash } from 'node:crypto';

for (let run = 0; run < 3; run++) {
  const from = performance.now();
  let digest = Buffer.alloc(32);
  for (let i = 0; i < 2_000_000; i++) digest = createHash('sha256').update(digest).digest();
  console.log(`2,000,000 SHA-256 digests: ${((performance.now() - from) / 1000).toFixed(2)} s`);
}
