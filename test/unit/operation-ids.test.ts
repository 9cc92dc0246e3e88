import { describe, expect, it } from 'vitest';
import { v1Contracts } from '../../app/v1/contracts';

// What generated clients call each operation (openapi-typescript, the SDK): names a person would
// call, declared in each contract, never derived from the path.
const VERBS = ['accept', 'stream', 'compare', 'confirm', 'create', 'delete', 'erase', 'get', 'invite', 'list', 'measure', 'move', 'preview', 'promote', 'publish', 'remove', 'replay', 'review', 'revoke', 'rotate', 'save', 'send', 'set', 'simulate', 'start', 'stop', 'trace', 'trigger', 'update', 'verify'];

describe('operation ids', () => {
  const ids = v1Contracts().map((c) => c.operationId);

  it('are unique, lowerCamelCase and start with a verb', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id, id).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)*$/);
      expect(VERBS, `${id} starts with a verb`).toContain(id.match(/^[a-z]+/)![0]);
    }
  });

  it('keep the names integrations already call', () => {
    const byRoute = Object.fromEntries(v1Contracts().map((c) => [`${c.method} ${c.path}`, c.operationId]));
    expect(byRoute).toMatchObject({
      'POST /v1/quotes': 'createQuote',
      'POST /v1/public_quotes': 'createPublicQuote',
      'GET /v1/businesses/{businessId}/members': 'listMembers',
      'POST /v1/api-keys/{keyId}/rotation': 'rotateApiKey',
      'POST /v1/accounts/{id}/quote-simulations': 'simulateQuote',
      'GET /v1/webhook-deliveries': 'listWebhookDeliveries',
    });
  });
});
