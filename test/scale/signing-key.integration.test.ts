import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../lib/db/client';
import { createPerson, createTenant, type Person, type Tenant, testContext } from '../../lib/testing/factories';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { createEndpoint } from '../../lib/webhooks/create-endpoint';
import { checkSigningKey, forgetSigningKeyCheck } from '../../lib/webhooks/signing-key';

/**
 * Every instance must hold the key the signing secrets were sealed with: one that does not
 * (none, a malformed one, another one) learns it from the database before it seals or opens anything.
 */
let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
let db: Db;
let tenant: Tenant;
let admin: Person;
const configured = process.env.WEBHOOK_SECRET_KEY;
const otherKey = 'fe'.repeat(32);

function withKey(key: string | undefined) {
  if (key === undefined) delete process.env.WEBHOOK_SECRET_KEY;
  else process.env.WEBHOOK_SECRET_KEY = key;
  forgetSigningKeyCheck();
}

beforeAll(async () => {
  iso = await createIsolatedDatabase();
  db = iso.db;
  tenant = await createTenant({}, db);
  admin = await createPerson(tenant, { permissions: ['webhooks:manage'] }, db);
});

afterAll(async () => {
  withKey(configured);
  await iso?.close();
});

describe('the webhook secret key check', () => {
  it('records the first key it sees, and refuses any other, a missing or a malformed one', async () => {
    withKey(configured);
    expect(await checkSigningKey(db)).toEqual({ usable: true });
    expect(await db.keyCheck.count()).toBe(1);
    const stored = (await db.keyCheck.findFirstOrThrow()).checkValue;
    expect(stored).not.toContain(configured!); // identifies the key without revealing it

    withKey(otherKey);
    expect(await checkSigningKey(db)).toEqual({ usable: false, reason: expect.stringContaining('not the key the signing secrets') });
    expect((await db.keyCheck.findFirstOrThrow()).checkValue).toBe(stored);
    withKey(undefined);
    expect(await checkSigningKey(db)).toEqual({ usable: false, reason: 'WEBHOOK_SECRET_KEY is not set' });
    withKey('abc');
    expect(await checkSigningKey(db)).toEqual({ usable: false, reason: expect.stringContaining('64 hex characters') });
  });

  it('on a database from before the check, tries the key on a stored secret before recording it', async () => {
    withKey(configured);
    await createEndpoint(testContext(db, { principal: admin.principal }), { projectId: tenant.projectId, environment: 'live', url: 'https://hooks.example.com/a' });
    await db.keyCheck.deleteMany();

    withKey(otherKey);
    expect(await checkSigningKey(db)).toMatchObject({ usable: false });
    expect(await db.keyCheck.count()).toBe(0); // the wrong key is never recorded
    await expect(
      createEndpoint(testContext(db, { principal: admin.principal }), { projectId: tenant.projectId, environment: 'live', url: 'https://hooks.example.com/b' }),
    ).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });

    withKey(configured);
    expect(await checkSigningKey(db)).toEqual({ usable: true });
    expect(await db.keyCheck.count()).toBe(1);
  });
});
