// Generated price books for the engine benchmark: N rules spread over the phases, each with
// conditions on a few of 8 factors (4 options each), deterministic for a given size.
import type { BookArtifactInput, QuoteInputs } from '../pricing';

const FACTORS = 8;
const OPTIONS = 4;
const OFFERINGS = 4;

/** mulberry32: a small, seeded PRNG so that books and inputs are the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const factorId = (i: number) => `f${i}`;
const optionId = (i: number) => `o${i}`;
const offeringId = (i: number) => `service_${i}`;

type Rule = NonNullable<BookArtifactInput['rules']>[number];

/**
 * A valid artifact (bookArtifactSchema) with exactly `ruleCount` rules. `shape` asks for more
 * offerings or factors than the benchmark's 4 and 8 (each offering then asks 8 of the factors);
 * without it the book is the benchmark's, the same on every run.
 */
export function generateBook(ruleCount: number, seed = 42, shape: { offerings?: number; factors?: number } = {}): BookArtifactInput {
  const factorCount = shape.factors ?? FACTORS;
  const offeringCount = shape.offerings ?? OFFERINGS;
  const random = prng(seed + ruleCount);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[], count: number): T[] => {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(int(0, pool.length - 1), 1)[0]);
    return out;
  };
  const allFactors = Array.from({ length: factorCount }, (_, i) => i);
  const allOptions = Array.from({ length: OPTIONS }, (_, i) => optionId(i));
  const allOfferings = Array.from({ length: offeringCount }, (_, i) => offeringId(i));
  const when = (min = 1) =>
    pick(allFactors, int(min, 3)).map((f) => ({ factorId: factorId(f), optionIds: pick(allOptions, int(1, 3)) }));
  // Called where the value is written, so the random numbers are drawn in the same order.
  const adjustment = () =>
    random() < 0.7
      ? { type: 'fixed' as const, amountMinor: int(-300, 500) }
      : { type: 'percent' as const, basisPoints: int(-250, 250) };

  const rules: Rule[] = [];
  for (let i = 0; i < ruleCount; i++) {
    const id = `r${i}`;
    const label = `Rule ${i}`;
    const r = random();
    if (r < 0.03) {
      rules.push({ id, label, phase: 'baseOverride', when: when(), priceMinor: int(8_000, 30_000) });
    } else if (r < 0.33) {
      rules.push({
        id,
        label,
        phase: 'scopedModifier',
        offeringIds: pick(allOfferings, int(1, 2)),
        ...(random() < 0.5 ? { when: when() } : {}),
        adjustment: adjustment(),
      });
    } else if (r < 0.78) {
      rules.push({
        id,
        label,
        phase: 'conditionalModifier',
        when: when(),
        adjustment: adjustment(),
      });
    } else if (r < 0.88) {
      rules.push({
        id,
        label,
        phase: 'discount',
        when: when(),
        reduction: random() < 0.5 ? { type: 'fixed', amountMinor: int(50, 500) } : { type: 'percent', basisPoints: int(50, 300) },
      });
    } else if (r < 0.95) {
      const minimum = random() < 0.6;
      rules.push({
        id,
        label,
        phase: 'guardrail',
        ...(random() < 0.5 ? { when: when() } : {}),
        limit: minimum ? 'minimumTotal' : 'maximumTotal',
        amountMinor: minimum ? int(1_000, 8_000) : int(100_000_000, 1_000_000_000),
      });
    } else {
      rules.push({ id, label, phase: 'paymentTerms', ...(random() < 0.5 ? { when: when() } : {}), depositBasisPoints: int(1_000, 5_000) });
    }
  }

  return {
    formatVersion: 1,
    currency: 'USD',
    autonomy: 'autonomous',
    offerings: allOfferings.map((id, i) => ({
      id,
      label: `Service ${i}`,
      basePriceMinor: 10_000 + i * 2_500,
      factorIds: shape.factors === undefined ? allFactors.map(factorId) : Array.from({ length: Math.min(8, factorCount) }, (_, k) => factorId((i * 3 + k) % factorCount)),
    })),
    factors: allFactors.map((f) => ({
      id: factorId(f),
      label: `Factor ${f}`,
      required: f < factorCount - 2,
      options: allOptions.map((id, o) => ({ id, label: `Option ${o}` })),
      whenUnknown: f >= factorCount - 2 ? { action: 'assume' as const, optionId: optionId(0) } : { action: 'requireInput' as const },
    })),
    rules,
    conditions: ['Generated for the benchmark.'],
  };
}

/** `count` complete answers (the last two factors sometimes unknown, priced by assumption). */
export function generateInputs(count: number, seed = 7): QuoteInputs[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    const factors: Record<string, string | null> = {};
    for (let f = 0; f < FACTORS; f++) {
      factors[factorId(f)] = f >= FACTORS - 2 && random() < 0.3 ? null : optionId(Math.floor(random() * OPTIONS));
    }
    return { offeringId: offeringId(Math.floor(random() * OFFERINGS)), factors };
  });
}
