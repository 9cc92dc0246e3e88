import type { ApiKeyPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { findAccountProject } from './store';

/** Spec 2.8: the account as this key sees it. */
export async function getAccount({ db, principal }: VerbContext<ApiKeyPrincipal>) {
  const project = await findAccountProject(db, principal.projectId);
  return {
    object: 'account' as const,
    id: project.id,
    name: project.name,
    environment: principal.environment,
    scopes: principal.scopes,
    entitlements: project.entitlements,
  };
}
