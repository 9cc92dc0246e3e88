import { afterAll, describe, expect, it } from 'vitest';
import { demoExample } from '../../lib/books/demo-book';
import { issueFormToken } from '../../lib/leads/form-token';
import { forgetSealingKeyCheck } from '../../lib/sealing/check-sealing-key';
import { api } from '../support/api-client';
import { createPerson, createTenant } from '../../lib/testing/factories';
import { setEnv } from '../support/settings';

/**
 * An instance without a usable sealing key (none, malformed, or not the one the database's
 * secrets were sealed with) answers 503 on every route that needs it, never 500: the acceptance
 * form (its token) and new webhook secrets here; quotes, whose signing key a fresh instance
 * cannot open, in test/scale/multi-instance.integration.test.ts (this process already holds its
 * signer, as an instance whose key is changed under it would until it restarts).
 */
const configured = process.env.SEALING_KEY;

function withKey(key: string | undefined) {
  setEnv({ SEALING_KEY: key });
  forgetSealingKeyCheck();
}

afterAll(() => withKey(configured));

describe('an instance without a usable sealing key', () => {
  it.each([
    ['none', undefined],
    ['a malformed one', 'abc'],
    ['another key than the database’s', 'fe'.repeat(32)],
  ])('answers 503 on the acceptance form and new webhook secrets: %s', async (_, key) => {
    withKey(configured);
    const tenant = await createTenant();
    const admin = await createPerson(tenant, { permissions: 'all' });
    const quote = await api('POST', '/v1/public_quotes', { body: { businessId: tenant.businessId, ...demoExample } });
    const quoteId: string = quote.body.data.quoteIntent.id;
    const acceptance = {
      businessId: tenant.businessId,
      contact: { name: 'Ola Berg', email: 'ola@example.test' },
      consent: true,
      formToken: issueFormToken(quoteId, new Date(Date.now() - 5_000)),
    };

    withKey(key);
    const answers = {
      form: await api('GET', `/v1/public_quotes/${quoteId}/acceptance`),
      accept: await api('POST', `/v1/public_quotes/${quoteId}/acceptance`, { body: acceptance }),
      endpoint: await api('POST', '/v1/webhook-endpoints', { key: admin.token, body: { projectId: tenant.projectId, environment: 'test', url: 'https://hooks.example.com/x' } }),
    };
    for (const [route, answer] of Object.entries(answers)) {
      expect({ route, status: answer.status, code: answer.body.error?.code }).toEqual({ route, status: 503, code: 'service_unavailable' });
      expect(answer.body.error.message).toMatch(/SEALING_KEY/);
      expect(answer.text).not.toContain('fe'.repeat(32));
    }
    withKey(configured);
    expect((await api('POST', `/v1/public_quotes/${quoteId}/acceptance`, { body: acceptance })).status).toBe(201);
  });
});
