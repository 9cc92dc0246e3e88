import type { VerbContext } from '../context/verb-context';
import { issuesByField } from '../errors/parse-or-throw';
import { bookArtifactSchema } from '../pricing';
import { writeDraft } from './store';

/** What is wrong with an artifact, by field; empty when it would publish. */
function artifactIssues(artifact: unknown): Record<string, string[]> {
  const result = bookArtifactSchema.safeParse(artifact);
  return result.success ? {} : issuesByField(result.error, 'artifact');
}

/** PUT /v1/books/{id}/draft (`books:edit`, checked by the route): keeps any JSON object as work in progress. */
export async function saveDraft({ db }: VerbContext, { bookId, artifact }: { bookId: string; artifact: unknown }) {
  await writeDraft(db, bookId, artifact);
  const issues = artifactIssues(artifact);
  return { valid: Object.keys(issues).length === 0, issues };
}
