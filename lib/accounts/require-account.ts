import type { ApiKeyPrincipal } from '../auth/principal';
import type { VerbContext } from '../context/verb-context';
import { ServiceError } from '../errors/service-error';

/**
 * One account per project, the same id in Test and Live; another id answers 404. Routes under
 * /v1/accounts/{id} check it first (`authorize`); the verbs in lib/accounts serve the key's own account.
 */
export function requireAccount({ principal }: VerbContext<ApiKeyPrincipal>, { accountId }: { accountId: string }): void {
  if (accountId !== principal.projectId) {
    throw new ServiceError('not_found', `No account ${accountId} for this API key.`, { param: 'id' });
  }
}
