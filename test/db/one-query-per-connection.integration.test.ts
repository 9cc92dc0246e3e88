import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessAccess } from '../../lib/auth/permissions';
import { setBranding } from '../../lib/businesses/set-branding';
import { changeBusinessMember } from '../../lib/members/change-business-member';
import { inviteBusinessMember } from '../../lib/members/invite-business-member';
import { createPerson, createTenant, testDb, type Person, type Tenant, testContext } from '../../lib/testing/factories';

/**
 * pg deprecates (and pg@9 removes) sending a query on a connection that is still running one:
 * "Calling client.query() when the client is already executing a query". Prisma runs a
 * query's relation reads concurrently, so inside a transaction (one connection) a select with
 * several relations does exactly that. These are the transactions that read several relations.
 */
describe('one query at a time on a connection', () => {
  type Overlap = { running: string; sent: string };
  const overlaps: Overlap[] = [];
  const warnings: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.message.includes('already executing a query')) warnings.push(warning.message);
  };
  const query = pg.Client.prototype.query;
  let tenant: Tenant;
  let owner: Person;

  beforeAll(async () => {
    tenant = await createTenant();
    owner = await createPerson(tenant, { permissions: ['businesses:manage'], businessRole: 'owner' });
    process.on('warning', onWarning);
    const text = (q: unknown) => String(typeof q === 'string' ? q : (q as { text?: string } | null)?.text).slice(0, 120);
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const state = this as unknown as { _activeQuery: unknown; _queryQueue: unknown[] };
      if (state._activeQuery || state._queryQueue.length > 0) overlaps.push({ running: text(state._activeQuery), sent: text(args[0]) });
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });

  afterAll(() => {
    pg.Client.prototype.query = query;
    process.off('warning', onWarning);
  });

  it('checks business access inside a transaction with one statement', async () => {
    const access = await testDb().$transaction((tx) => businessAccess(tx, owner.principal, tenant.businessId));
    expect(access).toMatchObject({
      business: { id: tenant.businessId, workspaceId: tenant.workspaceId },
      membership: { role: 'owner' },
      workspacePermissions: ['businesses:manage'],
      workspaceMember: true,
      connection: { projectId: tenant.projectId, liveEnvironmentId: tenant.environments.live },
    });
    expect(await businessAccess(testDb(), owner.principal, randomUUID())).toBeNull();
    expect(overlaps).toEqual([]);
  });

  it('invites, changes a member and sets branding without overlapping queries', async () => {
    const now = new Date();
    const access = (await businessAccess(testDb(), owner.principal, tenant.businessId))!;
    const asOwner = testContext(testDb(), { now, principal: owner.principal });
    const invited = await inviteBusinessMember(asOwner, { access, businessId: tenant.businessId, email: `m-${randomUUID()}@example.test`, role: 'viewer' });
    await changeBusinessMember(asOwner, { businessId: tenant.businessId, membershipId: invited.id, change: { role: 'editor' } });
    await setBranding(asOwner, { access, branding: { displayName: 'Brand', logoUrl: null, primaryColor: '#112233', accentColor: '#445566' } });
    await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
    expect(overlaps).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
