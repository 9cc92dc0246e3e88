import { testFailureView } from './test-failures';
import type { EndpointView } from './schemas';
import type { EndpointRow } from './store';
import { privateTargetsAllowed, targetVerdict } from './target-policy';

export function toEndpointView(row: EndpointRow, now: Date): EndpointView {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    projectId: row.projectId,
    environment: row.environment.kind,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    status: row.status,
    secretPrefix: row.secretPrefix,
    secretLast4: row.secretLast4,
    previousSecretExpiresAt: overlap?.toISOString() ?? null,
    testFailure: testFailureView(row),
    compressedRetries: row.compressedRetries,
    targetNote: targetNote(row.url),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the target policy says of the URL on this deployment: a private target it allows, or why deliveries to it are refused. */
function targetNote(url: string): string | null {
  const { problem, note } = targetVerdict(url, privateTargetsAllowed());
  return problem ? `Deliveries to this URL are refused: ${problem}.` : note;
}
