import { afterAll, describe, expect, it } from 'vitest';
import { testContext } from '../../lib/testing/factories';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { checkSigningKey, forgetSigningKeyCheck } from '../../lib/webhooks/signing-key';
import { webhookTestbed } from '../support/webhook-testbed';

/**
 * Every instance must hold the key the signing secrets were sealed with: one that does not
 * (none, a malformed one, another one) learns it from the database before it seals or opens anything.
 */
const bed = webhookTestbed(new Date());
const configured = process.env.WEBHOOK_SECRET_KEY;
const otherKey = 'fe'.repeat(32);

function withKey(key: string | undefined) {
  if (key === undefined) delete process.env.WEBHOOK_SECRET_KEY;
  else process.env.WEBHOOK_SECRET_KEY = key;
  forgetSigningKeyCheck();
}

afterAll(() => withKey(configured));

describe('the webhook secret key check', () => {
  it('records the first key it sees, and refuses any other, a missing or a malformed one', async () => {
    withKey(configured);
    expect(await checkSigningKey(bed.db)).toEqual({ usable: true });
    expect(await bed.db.keyCheck.count()).toBe(1);
    const stored = (await bed.db.keyCheck.findFirstOrThrow()).checkValue;
    expect(stored).not.toContain(configured!); // identifies the key without revealing it

    withKey(otherKey);
    expect(await checkSigningKey(bed.db)).toEqual({ usable: false, reason: expect.stringContaining('not the key the signing secrets') });
    expect((await bed.db.keyCheck.findFirstOrThrow()).checkValue).toBe(stored);
    withKey(undefined);
    expect(await checkSigningKey(bed.db)).toEqual({ usable: false, reason: 'WEBHOOK_SECRET_KEY is not set' });
    withKey('abc');
    expect(await checkSigningKey(bed.db)).toEqual({ usable: false, reason: expect.stringContaining('64 hex characters') });
  });

  it('on a database from before the check, tries the key on a stored secret before recording it', async () => {
    withKey(configured);
    await createEndpoint(testContext(bed.db, { principal: bed.admin.principal }), { projectId: bed.tenant.projectId, environment: 'live', url: 'https://hooks.example.com/a' });
    await bed.db.keyCheck.deleteMany();

    withKey(otherKey);
    expect(await checkSigningKey(bed.db)).toMatchObject({ usable: false });
    expect(await bed.db.keyCheck.count()).toBe(0); // the wrong key is never recorded
    await expect(
      createEndpoint(testContext(bed.db, { principal: bed.admin.principal }), { projectId: bed.tenant.projectId, environment: 'live', url: 'https://hooks.example.com/b' }),
    ).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });

    withKey(configured);
    expect(await checkSigningKey(bed.db)).toEqual({ usable: true });
    expect(await bed.db.keyCheck.count()).toBe(1);
  });
});
