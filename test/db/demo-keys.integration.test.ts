import { describe, expect, it } from 'vitest';
import { demoKeys } from '../../prisma/demo-keys';
import { createTenant, testDb } from '../../lib/testing/factories';

describe('the demo keys npm start makes', () => {
  it('are six, each named for what it is for, and a restart keeps them while they work', async () => {
    const tenant = await createTenant();
    const now = new Date();
    const first = await demoKeys(testDb(), tenant.projectId, null, now);
    const names = async () =>
      (await testDb().apiKey.findMany({ where: { projectId: tenant.projectId, name: { startsWith: 'Demo key' }, status: { not: 'revoked' } }, select: { name: true } })).map((k) => k.name);
    const made = await names();
    expect(made).toHaveLength(6);
    // The API keys page tells them apart.
    expect(new Set(made).size).toBe(6);
    expect(made.map((n) => n.replace(/^Demo key \(npm start [^)]+\) — /, '')).sort()).toEqual([
      'Live, account surface',
      'Live, for quotes',
      'Test, account surface',
      'Test, account surface, a second key',
      'Test, account surface, read only',
      'Test, for quotes',
    ]);
    expect(await demoKeys(testDb(), tenant.projectId, first, now)).toEqual(first);
    expect(await names()).toHaveLength(6);
  });
});
