import { AsyncLocalStorage } from 'node:async_hooks';

/** Tenancy of a request, as far as the code serving it learns it (for the request log). */
export type Tenancy = { workspaceId?: string | null; projectId?: string | null; environmentId?: string | null; businessId?: string | null };

const current = new AsyncLocalStorage<(tenancy: Tenancy) => void>();

/** Runs `fn` so that noteTenancy() calls made while serving it reach `record`. */
export function withTenancyRecorder<T>(record: (tenancy: Tenancy) => void, fn: () => Promise<T>): Promise<T> {
  return current.run(record, fn);
}

/**
 * Authorization checks call this with the workspace (and project, business) they have just
 * resolved, so that every request is logged under its tenancy without handlers repeating it.
 * Outside a request it does nothing.
 */
export function noteTenancy(tenancy: Tenancy): void {
  current.getStore()?.(tenancy);
}
