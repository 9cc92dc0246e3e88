// The pricing engine alone, one thread (run as its own process by bench/cases/engine.ts):
// evaluations per second for the demo book and generated books of 10 … 10,000 rules.
// `node --import tsx bench/engine.ts <out.json> [--quick]`
import { writeFileSync } from 'node:fs';
import { demoBookArtifact, demoExample } from '../lib/books/demo-book';
import { bookArtifactSchema, compileBook, evaluate, type CompiledBook, type QuoteInputs } from '../lib/pricing';
import { generateBook, generateInputs } from '../lib/testing/generate-book';
import { linearFit } from './stats';

export type EngineCase = {
  book: string;
  rules: number;
  /** Schema validation + compileBook, once per published version (then cached by the service). */
  compileMs: number;
  /** Per CPU second of the benchmark process (one thread): the figure the target speaks of. */
  evaluationsPerSecond: number;
  /** Per wall-clock second: lower than the CPU figure when the machine is shared. */
  evaluationsPerWallSecond: number;
  microsPerEvaluation: number;
  nanosPerRule: number;
  /** evaluate + JSON.stringify of the outcome (per CPU second), as the service serialises the receipt. */
  withJsonPerSecond: number;
  derivationEntries: number;
  receiptBytes: number;
};

export type EngineResult = {
  cases: EngineCase[];
  fit: { nanosPerRule: number; fixedMicros: number; r2: number };
};

let sink = 0;

/**
 * Runs `fn` in batches until `seconds` of wall time have passed. Returns calls per wall second
 * and per CPU second of this process: on a shared machine the CPU figure is the one-core cost.
 */
function measure(seconds: number, inputs: QuoteInputs[], fn: (inputs: QuoteInputs) => unknown): { wall: number; cpu: number } {
  let count = 0;
  let i = 0;
  const batch = 16;
  const cpuStarted = process.cpuUsage();
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  let now = started;
  do {
    for (let b = 0; b < batch; b++) {
      const result = fn(inputs[i]);
      if (result === null) sink++;
      i = (i + 1) % inputs.length;
    }
    count += batch;
    now = process.hrtime.bigint();
  } while (now < deadline);
  const cpu = process.cpuUsage(cpuStarted);
  return { wall: count / (Number(now - started) / 1e9), cpu: count / ((cpu.user + cpu.system) / 1e6) };
}

function runCase(name: string, artifactInput: unknown, inputs: QuoteInputs[], seconds: number): EngineCase {
  const compileStarted = performance.now();
  const artifact = bookArtifactSchema.parse(artifactInput);
  const book: CompiledBook = compileBook(artifact);
  const compileMs = performance.now() - compileStarted;
  const sample = evaluate(book, inputs[0]);
  if (sample.outcome !== 'succeeded') throw new Error(`${name}: sample input did not price (${sample.outcome})`);
  // Warm-up: let the JIT settle before timing.
  measure(Math.min(0.5, seconds / 2), inputs, (x) => evaluate(book, x));
  const plain = measure(seconds, inputs, (x) => evaluate(book, x));
  const withJson = measure(seconds / 2, inputs, (x) => JSON.stringify(evaluate(book, x)));
  const evaluationsPerSecond = plain.cpu;
  const withJsonPerSecond = withJson.cpu;
  const microsPerEvaluation = 1e6 / evaluationsPerSecond;
  return {
    book: name,
    rules: artifact.rules.length,
    compileMs,
    evaluationsPerSecond,
    evaluationsPerWallSecond: plain.wall,
    microsPerEvaluation,
    nanosPerRule: (microsPerEvaluation * 1000) / Math.max(1, artifact.rules.length),
    withJsonPerSecond,
    derivationEntries: sample.computation.derivation.length,
    receiptBytes: JSON.stringify(sample.computation).length,
  };
}

export function runEngineBench(quick: boolean, sizes = [10, 100, 1_000, 10_000]): EngineResult {
  const seconds = quick ? 0.5 : 2;
  const cases: EngineCase[] = [];
  const demoInputs: QuoteInputs[] = [
    demoExample,
    { offeringId: 'gutter_cleaning', factors: { home_size: 'small', storeys: '3', access: 'easy' } },
    { offeringId: 'solar_panel_cleaning', factors: { panel_count: '13_to_24', storeys: '1', frequency: null } },
    { offeringId: 'window_cleaning', factors: { home_size: 'large', storeys: '1', frequency: 'one_off', access: null, site_type: 'commercial' } },
  ];
  cases.push(runCase('demo', demoBookArtifact, demoInputs, seconds));
  const inputs = generateInputs(256);
  for (const size of sizes) {
    cases.push(runCase(`generated-${size}`, generateBook(size), inputs, size >= 10_000 ? seconds * 1.5 : seconds));
  }
  const generated = cases.filter((c) => c.book.startsWith('generated-'));
  const fit = linearFit(
    generated.map((c) => c.rules),
    generated.map((c) => c.microsPerEvaluation),
  );
  return { cases, fit: { nanosPerRule: fit.slope * 1000, fixedMicros: fit.intercept, r2: fit.r2 } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  const result = runEngineBench(process.argv.includes('--quick'));
  if (out && !out.startsWith('--')) writeFileSync(out, JSON.stringify(result, null, 2));
  else console.log(JSON.stringify(result, null, 2));
  if (sink < 0) console.log(sink);
}
