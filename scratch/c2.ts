import { canonicalJson } from '../lib/hash/canonical-json';
import { compileBook, evaluate, bookArtifactSchema } from '../lib/pricing';
import { demoBookArtifact, demoExample } from '../lib/books/demo-book';
const book = compileBook(bookArtifactSchema.parse(demoBookArtifact));
const out = evaluate(book, demoExample) as any;
const receipt = { id: crypto.randomUUID(), quoteIntentId: crypto.randomUUID(), outcome: 'succeeded', source: 'api', bookVersionId: crypto.randomUUID(), computation: out.computation, missingInputs: [], failure: null, idempotencyKey: 'auto_' + crypto.randomUUID(), requestCorrelationId: crypto.randomUUID(), latencyMs: 3, createdAt: new Date().toISOString() };
const sortDeep = (v: any): any => Array.isArray(v) ? v.map(sortDeep) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sortDeep(v[k])])) : v;
const sorted = sortDeep(receipt);
function isSorted(v: unknown): boolean {
  if (typeof v === 'string') return v.isWellFormed();
  if (v === null || typeof v !== 'object') return true;
  if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) if (!isSorted(v[i])) return false; return true; }
  let prev: string | null = null;
  for (const k in v as object) { const x = (v as any)[k]; if (x === undefined) return false; if (prev !== null && !(prev < k)) return false; prev = k; if (!isSorted(x)) return false; }
  return true;
}
const bench = (name: string, fn: () => unknown) => { for (let i = 0; i < 3000; i++) fn(); const n = 30000; const t = performance.now(); for (let i = 0; i < n; i++) fn(); console.log(name.padEnd(28), ((performance.now() - t) * 1000 / n).toFixed(1), 'µs'); };
for (let r = 0; r < 2; r++) {
bench('JSON.stringify', () => JSON.stringify(receipt));
bench('canonicalJson (unsorted)', () => canonicalJson(receipt));
bench('isSorted+stringify (sorted)', () => isSorted(sorted) && JSON.stringify(sorted));
}
console.log(isSorted(sorted), JSON.stringify(sorted) === canonicalJson(receipt));
