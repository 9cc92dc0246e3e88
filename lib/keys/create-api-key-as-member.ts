import { requireWorkspaceMember } from '../auth/permissions';
import type { SessionPrincipal } from '../auth/principal';
import { withTransaction, type VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';
import { createAnnouncedApiKey, type CreateApiKeyInput } from './create-api-key';
import { findProjectForKeys } from './store';

/**
 * POST /v1/api-keys: a workspace member with `api_keys:create` mints a key; secret shown once.
 * Checks the person and the api_access feature and records `api_key.created` (createAnnouncedApiKey).
 */
export async function createApiKeyAsMember(ctx: VerbContext<SessionPrincipal>, input: Omit<CreateApiKeyInput, 'createdBy'>) {
  const { db, principal, now } = ctx;
  const project = await findProjectForKeys(db, input.projectId);
  if (!project) throw new ServiceError('not_found', `Project ${input.projectId} does not exist.`);
  await requireWorkspaceMember(db, principal, project.workspaceId, 'api_keys:create', `Project ${input.projectId} does not exist.`);
  // Spec 5.3: keys are minted only for accounts with the api_access feature.
  if (!project.entitlements.includes('api_access')) {
    throw new ServiceError('forbidden', 'This account does not have the api_access feature, so API keys cannot be created for it.');
  }
  return withTransaction(ctx, async (tx) => {
    const created = await createAnnouncedApiKey(tx, input);
    return { apiKey: created.apiKey, secret: created.secret };
  });
}
