import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { provisionTenant } from '../accounts/provision-tenant';
import { demoBookArtifact } from '../books/demo-book';
import { createDb } from '../db/client';
import { createApiKey } from '../keys/create-api-key';
import type { EnvironmentName } from '../keys/secrets';

let shared: ReturnType<typeof createDb> | undefined;

/** A Prisma client on the test database (for factories and direct checks of stored rows). */
export function testDb() {
  shared ??= createDb(inject('databaseUrl'));
  return shared.prisma;
}

export type TenantOptions = {
  artifact?: unknown;
  publishTo?: EnvironmentName[];
  connectionStatus?: 'active' | 'inactive';
};

/**
 * A fresh workspace of its own for one test: project (Test + Live), connected business,
 * primary book published where asked (both by default), and a Test and a Live key.
 */
export async function createTenant(options: TenantOptions = {}) {
  const db = testDb();
  const suffix = randomUUID().slice(0, 8);
  const now = new Date();
  const tenant = await provisionTenant(
    db,
    {
      workspace: { slug: `test-${suffix}`, name: `Test workspace ${suffix}` },
      projectName: `Project ${suffix}`,
      business: { name: `Business ${suffix}`, connectionStatus: options.connectionStatus },
      book: { key: `book-${suffix}`, name: `Book ${suffix}`, artifact: options.artifact ?? demoBookArtifact },
      publishTo: options.publishTo ?? ['test', 'live'],
    },
    now,
  );
  const test = await createApiKey(db, { projectId: tenant.projectId, environment: 'test', name: 'test key' }, now);
  const live = await createApiKey(db, { projectId: tenant.projectId, environment: 'live', name: 'live key' }, now);
  return { ...tenant, keys: { test: test.secret, live: live.secret }, keyIds: { test: test.apiKey.id, live: live.apiKey.id } };
}

export type Tenant = Awaited<ReturnType<typeof createTenant>>;
