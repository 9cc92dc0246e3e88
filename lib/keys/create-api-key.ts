import { defaultScopes } from '../auth/scopes';
import type { VerbContext } from '../context/verb-context';
import { recordEvent } from '../events/record-event';
import { ServiceError } from '../errors/service-error';
import type { EnvironmentName } from '../auth/principal';
import { mintKeySecret } from './secrets';
import { findProjectEnvironment } from '../tenancy/store';
import { actorFields, actorUserId, type KeyActor } from './key-actor';
import { insertApiKey } from './store';
import { toApiKeyView } from './to-api-key-view';

export type CreateApiKeyInput = {
  projectId: string;
  environment: EnvironmentName;
  name: string;
  scopes?: string[];
  createdBy?: string;
  /** Set by rotation: the key this one succeeds. */
  predecessorId?: string;
};

/**
 * Mints a key bound to one project and environment. The secret is returned here only. No
 * permission check and no event: for rotation, scripts, seeds and tests; a person's request
 * goes through createApiKeyAsMember.
 */
export async function createApiKey({ db, now }: VerbContext, input: CreateApiKeyInput) {
  const environment = await findProjectEnvironment(db, { projectId: input.projectId, kind: input.environment });
  if (!environment) throw new ServiceError('not_found', `Project ${input.projectId} does not exist.`);
  const minted = mintKeySecret(input.environment);
  const row = await insertApiKey(db, {
    workspaceId: environment.workspaceId,
    projectId: input.projectId,
    environmentId: environment.id,
    name: input.name,
    digest: minted.digest,
    displayPrefix: minted.displayPrefix,
    last4: minted.last4,
    scopes: input.scopes ?? defaultScopes(input.environment),
    createdBy: input.createdBy,
    predecessorId: input.predecessorId,
    createdAt: now,
  });
  return { apiKey: toApiKeyView(row, now), secret: minted.secret, workspaceId: environment.workspaceId, environmentId: environment.id };
}

/**
 * Mints a key for its actor and records `api_key.created` with it (in the caller's transaction):
 * a person's key (createApiKeyAsMember, after its checks) or a Test key's triggered one.
 */
export async function createAnnouncedApiKey(ctx: VerbContext<KeyActor>, input: Omit<CreateApiKeyInput, 'createdBy'>) {
  const created = await createApiKey(ctx, { ...input, createdBy: actorUserId(ctx.principal) });
  await recordEvent(ctx, {
    type: 'api_key.created',
    workspaceId: created.workspaceId,
    projectId: input.projectId,
    environmentId: created.environmentId,
    subjectId: created.apiKey.id,
    data: { apiKey: created.apiKey, ...actorFields(ctx.principal, 'createdBy') },
  });
  return created;
}
