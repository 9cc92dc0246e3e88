import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import { issueFormToken } from '../../lib/leads/form-token';
import type { Tenant } from '../../lib/testing/factories';
import { appUrl } from './portal';

/** An account quote the integration made with the tenant's key, held for review (its book must be `approval_first`). */
export async function heldQuote(tenant: Tenant, { environment = 'live', storeys = '2' }: { environment?: 'test' | 'live'; storeys?: string } = {}): Promise<string> {
  const res = await fetch(`${appUrl()}/v1/accounts/${tenant.projectId}/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.keys[environment]}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ services: [{ service: 'window_cleaning', selections: { home_size: 'medium', storeys, frequency: 'monthly', access: 'easy' } }] }),
  });
  const quote = (await res.json()) as { quote_id: string; state: string };
  expect(quote.state).toBe('awaiting_approval');
  return quote.quote_id;
}

/** A lead: a hosted-page quote the customer accepted, leaving these details (Riley Chen by default). Its quote's id. */
export async function acceptedLead(
  tenant: Tenant,
  details: { contact: Record<string, string>; note?: string } = { contact: { name: 'Riley Chen', email: 'riley.chen@example.test', phone: '+1 555 0150' }, note: 'Mornings are best.' },
): Promise<string> {
  const quote = await fetch(`${appUrl()}/v1/public_quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, offeringId: 'gutter_cleaning', factors: { home_size: 'medium', storeys: '2', access: 'easy' } }),
  });
  const quoteIntentId = ((await quote.json()) as { data: { quoteIntent: { id: string } } }).data.quoteIntent.id;
  const accepted = await fetch(`${appUrl()}/v1/public_quotes/${quoteIntentId}/acceptance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ businessId: tenant.businessId, ...details, consent: true, formToken: issueFormToken(quoteIntentId, new Date(Date.now() - 5_000)) }),
  });
  expect(accepted.status).toBe(201);
  return quoteIntentId;
}
