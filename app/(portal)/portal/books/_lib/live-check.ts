// What the editor knows about a draft as it is typed, without asking the server: its problems
// by field (the schema the server validates with), whether the forms can show it, and its
// prices for the preview's examples (the engine itself, worded for people).
import type { z } from 'zod';
import { peopleWording } from '@/app/_components/people-wording';
import { issuesByField } from '@/lib/errors/parse-or-throw';
import { bookArtifactSchema, compileBook, evaluate, type CompiledBook, type Outcome } from '@/lib/pricing';

export type DraftCheck = {
  /** Problems by dotted field path (`rules.3.when.0.factorId`); empty when the draft can become a version. */
  issues: Record<string, string[]>;
  /** Problems of type or shape: the forms cannot show the draft until the JSON view fixes them. */
  shapeIssues: Record<string, string[]>;
  /** The draft ready to price, when it has no problems. */
  compiled: CompiledBook | null;
};

// Wrong types, unknown phases or fields: what a form has no control for. Everything else (an
// empty label, a missing reference, an amount out of range) is shown beside its control.
const SHAPE_CODES = new Set(['invalid_type', 'invalid_union', 'unrecognized_keys', 'invalid_value', 'invalid_key', 'invalid_element']);

export function checkDraft(draft: unknown): DraftCheck {
  const parsed = bookArtifactSchema.safeParse(draft);
  if (parsed.success) return { issues: {}, shapeIssues: {}, compiled: compileBook(parsed.data, peopleWording(parsed.data.currency)) };
  const shape = parsed.error.issues.filter((issue) => SHAPE_CODES.has(issue.code));
  return {
    issues: issuesByField(parsed.error, 'artifact'),
    shapeIssues: shape.length > 0 ? issuesByField({ issues: shape } as z.ZodError, 'artifact') : {},
    compiled: null,
  };
}

/** One set of answers the preview prices: an offering, and per factor an option, null (not sure) or nothing. */
export type Example = { key: string; offeringId: string; answers: Record<string, string | null> };

export function priceExample(compiled: CompiledBook, example: Example): Outcome {
  const offering = compiled.offerings.get(example.offeringId);
  const asked = new Set(offering?.factorIds ?? []);
  // Only answers to what this offering asks, and only options that exist: an answer left from
  // an earlier draft must not fail the example.
  const factors = Object.fromEntries(
    Object.entries(example.answers).filter(([factorId, answer]) => {
      if (!asked.has(factorId)) return false;
      return answer === null || compiled.factors.get(factorId)?.options.has(answer) === true;
    }),
  );
  return evaluate(compiled, { offeringId: example.offeringId, factors });
}

/** Per rule id: in how many of the outcomes it applied. */
export function ruleUsage(outcomes: readonly Outcome[]): Map<string, number> {
  const usage = new Map<string, number>();
  for (const outcome of outcomes) {
    if (outcome.outcome !== 'succeeded') continue;
    for (const step of outcome.computation.derivation) {
      if (step.ruleId !== null && step.status === 'applied') usage.set(step.ruleId, (usage.get(step.ruleId) ?? 0) + 1);
    }
  }
  return usage;
}

/** What the editor asks of its checker: a draft (absent when only the examples changed) and the examples to price. */
export type DraftCheckRequest = { seq: number; draft?: unknown; examples: readonly Example[] };

/** The checker's answer: the draft's problems, whether it prices, and the examples' outcomes. */
export type DraftCheckAnswer = {
  seq: number;
  issues: DraftCheck['issues'];
  shapeIssues: DraftCheck['shapeIssues'];
  prices: boolean;
  outcomes: (Outcome | undefined)[];
};

/** One request answered: the draft checked (or the last check reused) and the examples priced. */
export function answerDraftCheck(request: DraftCheckRequest, last: DraftCheck | null): { answer: DraftCheckAnswer; check: DraftCheck } {
  const check = 'draft' in request || !last ? checkDraft(request.draft) : last;
  const outcomes = request.examples.map((example) => (check.compiled ? priceExample(check.compiled, example) : undefined));
  return { answer: { seq: request.seq, issues: check.issues, shapeIssues: check.shapeIssues, prices: check.compiled !== null, outcomes }, check };
}
