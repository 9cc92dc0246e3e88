import type { VerbContext } from '../context/verb-context';
import { issuesByField } from '../errors/parse-or-throw';
import { bookArtifactSchema, compileBook, evaluate } from '../pricing';
import { readDraft } from './store';

/** POST /v1/books/{id}/preview (any workspace member, checked by the route): prices against a draft, storing nothing. */
export async function previewDraft(
  { db }: VerbContext,
  { bookId, request }: { bookId: string; request: { artifact?: unknown; offeringId: string; factors: Record<string, string | null> } },
) {
  const artifact = request.artifact !== undefined ? request.artifact : await readDraft(db, bookId);
  const parsed = bookArtifactSchema.safeParse(artifact);
  if (!parsed.success) {
    return { valid: false, issues: issuesByField(parsed.error, 'artifact'), outcome: null, computation: null, missingInputs: [], failure: null };
  }
  const outcome = evaluate(compileBook(parsed.data), { offeringId: request.offeringId, factors: request.factors });
  return {
    valid: true,
    issues: {},
    outcome: outcome.outcome,
    computation: outcome.outcome === 'succeeded' ? outcome.computation : null,
    missingInputs: outcome.outcome === 'requires_input' ? outcome.missingInputs : [],
    failure: outcome.outcome === 'failed' ? outcome.failure : null,
  };
}
