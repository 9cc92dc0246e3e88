import { randomUUID } from 'node:crypto';
import { provisionTenant } from '../tenants/provision-tenant';
import { demoBookArtifact, demoExample } from '../books/demo-book';
import { createDb, type Db, type DbOrTx } from '../db/client';
import { WORKSPACE_PERMISSIONS, type WorkspacePermission } from '../auth/permissions';
import type { Principal, SessionPrincipal } from '../auth/principal';
import { systemContext, type SystemPrincipal, type VerbContext } from '../context/verb-context';
import { createSession } from '../auth/sessions';
import { createApiKey } from '../keys/create-api-key';
import { addBusinessMember, addWorkspaceMember, ensureUser } from '../members/add-members';
import type { EnvironmentName } from '../auth/principal';
import type { RequestLogEntry } from '../requestlog/store';

let shared: ReturnType<typeof createDb> | undefined;

/**
 * A Prisma client on the test database (for factories and direct checks of stored rows).
 * Both test runners' global setups put the database's URL in TEST_DATABASE_URL.
 */
export function testDb() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run through the test runners (npm test)');
  shared ??= createDb(url);
  return shared.prisma;
}

/**
 * A verb context for a test, on `db` at `now`: the system's (job `test`), or, given a principal,
 * that person's or key's, as a route would pass it.
 */
export function testContext(db: DbOrTx, options?: { now?: Date }): VerbContext<SystemPrincipal>;
export function testContext<P extends Principal>(db: DbOrTx, options: { now?: Date; principal: P }): VerbContext<P>;
export function testContext(db: DbOrTx, options: { now?: Date; principal?: Principal } = {}): VerbContext {
  const ctx = systemContext(db, 'test', options.now);
  return options.principal ? { ...ctx, principal: options.principal } : ctx;
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
export async function createTenant(options: TenantOptions = {}, db: Db = testDb()) {
  const suffix = randomUUID().slice(0, 8);
  const ctx = testContext(db);
  const tenant = await provisionTenant(ctx, {
    workspace: { slug: `test-${suffix}`, name: `Test workspace ${suffix}` },
    projectName: `Project ${suffix}`,
    business: { name: `Business ${suffix}`, connectionStatus: options.connectionStatus },
    book: { key: `book-${suffix}`, name: `Book ${suffix}`, artifact: options.artifact ?? demoBookArtifact },
    publishTo: options.publishTo ?? ['test', 'live'],
  });
  const test = await createApiKey(ctx, { projectId: tenant.projectId, environment: 'test', name: 'test key' });
  const live = await createApiKey(ctx, { projectId: tenant.projectId, environment: 'live', name: 'live key' });
  return { ...tenant, keys: { test: test.secret, live: live.secret }, keyIds: { test: test.apiKey.id, live: live.apiKey.id } };
}

export type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** A request-log row of an API-key quote of the tenant's Live environment, as the route wrapper records one; `extra` on top. */
export function requestLogEntry(t: Tenant, extra: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    requestId: randomUUID(),
    method: 'POST',
    path: '/v1/quotes',
    status: 201,
    errorCode: null,
    principal: 'api_key',
    caller: 'api_key',
    portal: false,
    ip: null,
    userAgent: null,
    requestBody: null,
    responseBody: null,
    apiKeyId: t.keyIds.live,
    userId: null,
    workspaceId: t.workspaceId,
    projectId: t.projectId,
    environmentId: t.environments.live,
    businessId: t.businessId,
    latencyMs: 3,
    testFault: null,
    createdAt: new Date(),
    ...extra,
  };
}

/** A POST /v1/quotes body for the tenant's business and primary book: the demo example, with `extra` on top. */
export function quoteRequest(t: Pick<Tenant, 'businessId' | 'bookId'>, extra: Record<string, unknown> = {}) {
  return { businessId: t.businessId, bookId: t.bookId, ...demoExample, ...extra };
}

export type PersonOptions = {
  /** Workspace permissions; omit for no workspace membership. `'all'` for every permission. */
  permissions?: readonly WorkspacePermission[] | 'all';
  /** A role in the tenant's business; omit for none. */
  businessRole?: 'owner' | 'editor' | 'viewer';
};

/** A signed-in person of a tenant: a user with the given memberships and a session token. */
export async function createPerson(
  tenant: Pick<Tenant, 'workspaceId' | 'businessId'>,
  options: PersonOptions = {},
  db: Db = testDb(),
) {
  const ctx = testContext(db);
  const user = await ensureUser(ctx, { email: `person-${randomUUID()}@example.test`, name: 'Test Person' });
  if (options.permissions) {
    const permissions = options.permissions === 'all' ? WORKSPACE_PERMISSIONS : options.permissions;
    await addWorkspaceMember(ctx, { workspaceId: tenant.workspaceId, userId: user.id, permissions });
  }
  const membership = options.businessRole
    ? await addBusinessMember(ctx, { businessId: tenant.businessId, userId: user.id, role: options.businessRole })
    : null;
  const token = await createSession(db, user.id, new Date());
  const principal: SessionPrincipal = { kind: 'session', sessionId: '', userId: user.id, email: user.email, name: user.name };
  return { userId: user.id, email: user.email, token, membershipId: membership?.id ?? null, principal };
}

export type Person = Awaited<ReturnType<typeof createPerson>>;
