import { z } from 'zod';
import { isIsoCurrency } from './currencies';
import { DEFAULT_QUOTE_VALIDITY_DAYS, MAX_MINOR, MAX_SURCHARGE_BASIS_POINTS } from './limits';

/**
 * The price book artifact: what a Book Version holds. Written once here and used to validate
 * drafts at publication, to type the engine, and in the OpenAPI document. See docs/price-book.md.
 */

const id = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/, 'ids are 1-80 letters, digits, "_", "-" or "."');
const label = z.string().trim().min(1).max(200);
const minor = z.number().int().min(0).max(MAX_MINOR);

const factorOption = z.strictObject({
  id,
  label,
  /** Choosing this option needs a site visit before the price is firm (account surface: `quote`). */
  requiresInspection: z.boolean().optional(),
});

const whenUnknown = z.discriminatedUnion('action', [
  /** `null` ("unknown") is treated like a missing answer: the quote requires input. */
  z.strictObject({ action: z.literal('requireInput') }),
  /** `null` prices as this option; the derivation says so. */
  z.strictObject({ action: z.literal('assume'), optionId: id }),
]);

const factor = z.strictObject({
  id,
  label,
  /** A required factor must be answered (or be unknown with an `assume` policy) to price. */
  required: z.boolean().default(true),
  options: z.array(factorOption).min(1).max(200),
  whenUnknown: whenUnknown.default({ action: 'requireInput' }),
});

const offering = z.strictObject({
  id,
  label,
  description: z.string().max(2000).optional(),
  basePriceMinor: minor,
  /** Factors asked for this offering, in display order. */
  factorIds: z.array(id).max(200).default([]),
  /** Conditions text added to receipts of this offering. */
  conditions: z.array(z.string().min(1).max(1000)).max(50).default([]),
});

/** The rule matches when the factor's answer is one of these options. */
const clause = z.strictObject({ factorId: id, optionIds: z.array(id).min(1, 'Pick at least one answer for this condition').max(200) });

// The editor shows these words beside the field: they say what to do, not what the schema counts.
const whenClauses = z.array(clause).min(1, 'Add a condition: the answers this rule applies to').max(50);
const offeringIdList = z.array(id).min(1, 'Pick at least one offering').max(500);

const adjustment = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('fixed'), amountMinor: z.number().int().min(-MAX_MINOR).max(MAX_MINOR) }),
  z.strictObject({
    type: z.literal('percent'),
    basisPoints: z.number().int().min(-10_000).max(MAX_SURCHARGE_BASIS_POINTS),
  }),
]);

const reduction = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('fixed'), amountMinor: minor }),
  z.strictObject({ type: z.literal('percent'), basisPoints: z.number().int().min(0).max(10_000) }),
]);

const ruleCommon = {
  id,
  label,
  description: z.string().max(2000).optional(),
  /** Offerings the rule is scoped to; omitted = every offering. */
  offeringIds: offeringIdList.optional(),
  /** Every clause must match (AND); omitted = always. */
  when: whenClauses.optional(),
};

const rule = z.discriminatedUnion('phase', [
  z.strictObject({ ...ruleCommon, phase: z.literal('baseOverride'), priceMinor: minor }),
  z.strictObject({
    ...ruleCommon,
    phase: z.literal('scopedModifier'),
    offeringIds: offeringIdList,
    adjustment,
  }),
  z.strictObject({
    ...ruleCommon,
    phase: z.literal('conditionalModifier'),
    when: whenClauses,
    adjustment,
  }),
  z.strictObject({ ...ruleCommon, phase: z.literal('discount'), reduction }),
  z.strictObject({
    ...ruleCommon,
    phase: z.literal('guardrail'),
    limit: z.enum(['minimumTotal', 'maximumTotal']),
    amountMinor: minor,
  }),
  z.strictObject({
    ...ruleCommon,
    phase: z.literal('paymentTerms'),
    depositBasisPoints: z.number().int().min(0).max(10_000),
  }),
]);

/** A new artifact's currency: an ISO 4217 code with a minor unit (lib/pricing/currencies.ts). */
const isoCurrency = z.string().refine(isIsoCurrency, 'must be an ISO 4217 currency code such as USD or EUR');
/** A stored version's currency: the check it passed when it was created (versions never change). */
const storedCurrency = z.string().regex(/^[A-Z]{3}$/, 'must be three capital letters');

const artifactSchema = (currency: z.ZodType<string, string>) => z
  .strictObject({
    formatVersion: z.literal(1),
    currency,
    /** How produced quotes are disposed of on the account surface. */
    autonomy: z.enum(['autonomous', 'approval_first', 'observe']).default('autonomous'),
    offerings: z.array(offering).min(1).max(1000),
    factors: z.array(factor).max(1000).default([]),
    /** Evaluated phase by phase in the fixed order of PHASES; within a phase, in this order. */
    rules: z.array(rule).max(20_000).default([]),
    conditions: z.array(z.string().min(1).max(1000)).max(50).default([]),
    /** How long a price holds: a priced quote expires this many days after it is made; 0 = never. */
    quoteValidityDays: z.number().int().min(0).max(3650).default(DEFAULT_QUOTE_VALIDITY_DAYS),
  })
  .superRefine((book, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const factorOptions = new Map<string, Set<string>>();
    const seen = new Set<string>();
    const unique = (path: (string | number)[], kind: string, value: string) => {
      const key = `${kind}:${value}`;
      if (seen.has(key)) issue(path, `duplicate ${kind} id "${value}"`);
      seen.add(key);
    };
    book.factors.forEach((f, i) => {
      unique(['factors', i, 'id'], 'factor', f.id);
      const options = new Set<string>();
      f.options.forEach((o, j) => {
        if (options.has(o.id)) issue(['factors', i, 'options', j, 'id'], `duplicate option id "${o.id}"`);
        options.add(o.id);
      });
      if (f.whenUnknown.action === 'assume' && !options.has(f.whenUnknown.optionId)) {
        issue(['factors', i, 'whenUnknown', 'optionId'], `"${f.whenUnknown.optionId}" is not an option of "${f.id}"`);
      }
      factorOptions.set(f.id, options);
    });
    const offeringIds = new Set<string>();
    book.offerings.forEach((o, i) => {
      unique(['offerings', i, 'id'], 'offering', o.id);
      offeringIds.add(o.id);
      o.factorIds.forEach((fid, j) => {
        if (!factorOptions.has(fid)) issue(['offerings', i, 'factorIds', j], `unknown factor "${fid}"`);
      });
    });
    book.rules.forEach((r, i) => {
      unique(['rules', i, 'id'], 'rule', r.id);
      r.offeringIds?.forEach((oid, j) => {
        if (!offeringIds.has(oid)) issue(['rules', i, 'offeringIds', j], `unknown offering "${oid}"`);
      });
      r.when?.forEach((c, j) => {
        const options = factorOptions.get(c.factorId);
        if (!options) return issue(['rules', i, 'when', j, 'factorId'], `unknown factor "${c.factorId}"`);
        c.optionIds.forEach((oid, k) => {
          if (!options.has(oid)) issue(['rules', i, 'when', j, 'optionIds', k], `"${oid}" is not an option of "${c.factorId}"`);
        });
      });
    });
  });

/** What a new Book Version (or a draft, or a preview) must satisfy. */
export const bookArtifactSchema = artifactSchema(isoCurrency);
/**
 * How a stored version is read back (lib/books/published-version.ts): the same shape and references,
 * with the currency check it passed when created, so that no list change makes a published version unreadable.
 */
export const storedBookArtifactSchema = artifactSchema(storedCurrency);

/** A validated artifact, defaults applied. */
export type BookArtifact = z.output<typeof bookArtifactSchema>;
/** What an author may write (defaults optional). */
export type BookArtifactInput = z.input<typeof bookArtifactSchema>;
export type Rule = BookArtifact['rules'][number];
export type Factor = BookArtifact['factors'][number];
export type Offering = BookArtifact['offerings'][number];
