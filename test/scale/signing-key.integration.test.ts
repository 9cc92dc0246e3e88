import { afterAll, describe, expect, it } from 'vitest';
import { testContext } from '../../lib/testing/factories';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { checkSealingKey, forgetSealingKeyCheck } from '../../lib/sealing/check-sealing-key';
import { webhookTestbed } from '../support/webhook-testbed';
import { setEnv } from '../support/settings';

/**
 * Every instance must hold the key the secrets were sealed with (SEALING_KEY, or its former name): one that does not
 * (none, a malformed one, another one) learns it from the database before it seals or opens anything.
 */
const bed = webhookTestbed(new Date());
const configured = process.env.SEALING_KEY;
const otherKey = 'fe'.repeat(32);

function withKey(key: string | undefined, name: 'SEALING_KEY' | 'WEBHOOK_SECRET_KEY' = 'SEALING_KEY') {
  setEnv({ SEALING_KEY: undefined, WEBHOOK_SECRET_KEY: undefined, ...(key !== undefined ? { [name]: key } : {}) });
  forgetSealingKeyCheck();
}

afterAll(() => withKey(configured));

describe('the sealing key check', () => {
  it('records the first key it sees, and refuses any other, a missing or a malformed one', async () => {
    withKey(configured);
    expect(await checkSealingKey(bed.db)).toEqual({ usable: true });
    expect(await bed.db.keyCheck.count()).toBe(1);
    const stored = (await bed.db.keyCheck.findFirstOrThrow()).checkValue;
    expect(stored).not.toContain(configured!); // identifies the key without revealing it

    withKey(otherKey);
    expect(await checkSealingKey(bed.db)).toEqual({ usable: false, reason: expect.stringContaining('SEALING_KEY is not the key the secrets in the database were sealed with') });
    expect((await bed.db.keyCheck.findFirstOrThrow()).checkValue).toBe(stored);
    withKey(undefined);
    expect(await checkSealingKey(bed.db)).toEqual({ usable: false, reason: 'SEALING_KEY is not set' });
    withKey('abc');
    expect(await checkSealingKey(bed.db)).toEqual({ usable: false, reason: 'SEALING_KEY must be 64 hex characters (32 random bytes)' });
    // Its former name is still read, and named when it is the one at fault.
    withKey(configured, 'WEBHOOK_SECRET_KEY');
    expect(await checkSealingKey(bed.db)).toEqual({ usable: true });
    withKey('abc', 'WEBHOOK_SECRET_KEY');
    expect(await checkSealingKey(bed.db)).toEqual({ usable: false, reason: 'WEBHOOK_SECRET_KEY must be 64 hex characters (32 random bytes)' });
  });

  it('on a database from before the check, tries the key on a stored secret before recording it', async () => {
    withKey(configured);
    await createEndpoint(testContext(bed.db, { principal: bed.admin.principal }), { projectId: bed.tenant.projectId, environment: 'live', url: 'https://hooks.example.com/a' });
    await bed.db.keyCheck.deleteMany();

    withKey(otherKey);
    expect(await checkSealingKey(bed.db)).toMatchObject({ usable: false });
    expect(await bed.db.keyCheck.count()).toBe(0); // the wrong key is never recorded
    await expect(
      createEndpoint(testContext(bed.db, { principal: bed.admin.principal }), { projectId: bed.tenant.projectId, environment: 'live', url: 'https://hooks.example.com/b' }),
    ).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });

    withKey(configured);
    expect(await checkSealingKey(bed.db)).toEqual({ usable: true });
    expect(await bed.db.keyCheck.count()).toBe(1);
  });
});
