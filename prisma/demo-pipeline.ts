import { randomUUID } from 'node:crypto';
import { createAccountQuote } from '../lib/accounts/create-account-quote';
import type { ApiKeyPrincipal } from '../lib/auth/principal';
import { systemContext } from '../lib/context/verb-context';
import type { Db } from '../lib/db/client';
import { acceptQuote } from '../lib/leads/accept-quote';
import { issueFormToken } from '../lib/leads/form-token';
import { createPublicQuote } from '../lib/quotes/create-public-quote';
import type { DemoTenant } from './seed';

/**
 * Something for the demo's people to act on from the first start: two Live quotes of the
 * integration held for review (they need a site visit) and a customer who accepted a price on
 * the hosted page (a lead). Once: a database that has account quotes already is left alone.
 */
export async function seedDemoPipeline(db: Db, tenant: DemoTenant, now: Date): Promise<void> {
  if ((await db.accountQuote.count({ where: { projectId: tenant.projectId } })) > 0) return;
  const [live, key] = await Promise.all([
    db.environment.findUniqueOrThrow({ where: { projectId_kind: { projectId: tenant.projectId, kind: 'live' } }, select: { id: true } }),
    db.apiKey.findFirstOrThrow({ where: { projectId: tenant.projectId, environment: { kind: 'live' }, status: 'active' }, select: { id: true } }),
  ]);
  const principal: ApiKeyPrincipal = {
    kind: 'api_key',
    keyId: key.id,
    workspaceId: tenant.workspaceId,
    projectId: tenant.projectId,
    environmentId: live.id,
    environment: 'live',
    scopes: ['quotes:write'],
  };
  const ctx = { ...systemContext(db, 'seed', now), principal };
  const held = [
    { home_size: 'medium', storeys: '4_plus', frequency: 'one_off', access: 'easy' },
    { home_size: 'large', storeys: '4_plus', frequency: 'monthly', access: 'difficult' },
  ];
  for (const selections of held) {
    await createAccountQuote(ctx, {
      idempotencyKey: `demo-held-${randomUUID()}`,
      request: { services: [{ service: 'window_cleaning', selections }], context: { source: 'demo seed' } },
    });
  }
  const system = systemContext(db, 'seed', now);
  const { result } = await createPublicQuote(
    { ...system, startedAt: performance.now() },
    { businessId: tenant.businessId, offeringId: 'gutter_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } },
  );
  await acceptQuote(system, {
    quoteIntentId: result.quoteIntent.id,
    request: {
      businessId: tenant.businessId,
      contact: { name: 'Jamie Rivera', email: 'jamie.rivera@example.com', phone: '+1 555 0134' },
      note: 'Side gate code is 4821.',
      consent: true,
      formToken: issueFormToken(result.quoteIntent.id, new Date(now.getTime() - 60_000)),
    },
  });
}
