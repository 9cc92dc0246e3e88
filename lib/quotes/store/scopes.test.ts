import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rememberedScope, rememberStoredKey } from './scopes';

describe('a remembered quote scope', () => {
  const environmentId = randomUUID();
  const scope = { environmentId, publishedVersionId: randomUUID(), existingIntentId: null as string | null };
  const reader = () => {
    let reads = 0;
    return { read: async () => (reads++, { ...scope }), reads: () => reads };
  };

  it('is read once, then answered from memory, for any key this process has not seen stored', async () => {
    const key = `api:${randomUUID()}`;
    const { read, reads } = reader();
    await rememberedScope(key, false, read, { scope: 'api', key: 'order-1' });
    const again = await rememberedScope(key, false, read, { scope: 'api', key: 'order-2' });
    expect(reads()).toBe(1);
    // From memory the scope has not looked for an intent under the key.
    expect(again.existingIntentId).toBeUndefined();
  });

  // A replay then costs one read that finds the stored quote, not a quote priced, signed and refused by the insert.
  it('is read fresh for a key this process saw stored, in that environment and namespace only', async () => {
    const key = `api:${randomUUID()}`;
    const { read, reads } = reader();
    await rememberedScope(key, false, read, { scope: 'api', key: 'order-1' });
    rememberStoredKey(environmentId, { scope: 'api', key: 'order-1' });
    rememberStoredKey(randomUUID(), { scope: 'api', key: 'order-2' });
    rememberStoredKey(environmentId, { scope: 'public:b', key: 'order-3' });

    expect((await rememberedScope(key, false, read, { scope: 'api', key: 'order-1' })).existingIntentId).toBeNull();
    expect(reads()).toBe(2);
    await rememberedScope(key, false, read, { scope: 'api', key: 'order-2' });
    await rememberedScope(key, false, read, { scope: 'api', key: 'order-3' });
    await rememberedScope(key, false, read, { scope: 'api', key: undefined });
    expect(reads()).toBe(2);
  });
});
