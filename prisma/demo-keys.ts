import { systemContext } from '../lib/context/verb-context';
import type { Db } from '../lib/db/client';
import { createApiKey } from '../lib/keys/create-api-key';
import { digestOf } from '../lib/auth/secret-digest';
import { defaultScopes } from '../lib/auth/scopes';

export type DemoKey = { key: string; environment: 'test' | 'live'; scopes: string[] };
export type DemoKeys = { keys: { test: string; live: string }; accountKeys: Record<'all_test' | 'all_live' | 'sibling_test' | 'read_only_test', DemoKey> };

/** Every key `npm start` makes is named so: a later start can tell its own keys from people's. */
const NAME_PREFIX = 'Demo key (npm start';

/**
 * The demo's API keys: the ones `.data/demo.json` already holds when every one of them still
 * works, so that a restart keeps the keys a developer's scripts use; otherwise a fresh set. Every
 * other key an earlier start made is revoked, so that restarts do not pile up live keys.
 */
export async function demoKeys(db: Db, projectId: string, previous: DemoKeys | null, now: Date): Promise<DemoKeys> {
  const kept = previous && (await allStillWork(db, projectId, previous, now)) ? await withCurrentScopes(db, previous) : await mintDemoKeys(db, projectId, now);
  // Any other key an earlier start made is retired: one working set at a time.
  await db.apiKey.updateMany({
    where: { projectId, name: { startsWith: NAME_PREFIX }, status: { not: 'revoked' }, digest: { notIn: secretsOf(kept).map(digestOf) } },
    data: { status: 'revoked', revokedAt: now },
  });
  return kept;
}

const secretsOf = (demo: DemoKeys) => [demo.keys.test, demo.keys.live, ...Object.values(demo.accountKeys ?? {}).map((k) => k.key)];

async function mintDemoKeys(db: Db, projectId: string, now: Date): Promise<DemoKeys> {
  const name = `${NAME_PREFIX} ${now.toISOString()})`;
  const mint = async (environment: 'test' | 'live', scopes?: string[], suffix = '') => {
    const created = await createApiKey(systemContext(db, 'seed', now), { projectId, environment, name: `${name}${suffix}`, scopes });
    return { key: created.secret, environment, scopes: created.apiKey.scopes };
  };
  // Each named for what it is for, so that the API keys page tells the six apart.
  const test = await mint('test', undefined, ' — Test, for quotes');
  const live = await mint('live', undefined, ' — Live, for quotes');
  return {
    keys: { test: test.key, live: live.key },
    accountKeys: {
      all_test: await mint('test', undefined, ' — Test, account surface'),
      all_live: await mint('live', undefined, ' — Live, account surface'),
      sibling_test: await mint('test', undefined, ' — Test, account surface, a second key'),
      read_only_test: await mint('test', ['accounts:read'], ' — Test, account surface, read only'),
    },
  };
}

/**
 * Kept keys made with the default scopes get the scopes added since (a new Test-only scope, say),
 * so that a restart on old data can use what a fresh start could. The read-only key stays so.
 */
async function withCurrentScopes(db: Db, demo: DemoKeys): Promise<DemoKeys> {
  const upgrade = async (key: string, environment: 'test' | 'live') => {
    const scopes = defaultScopes(environment);
    await db.apiKey.updateMany({ where: { digest: digestOf(key) }, data: { scopes } });
    return scopes;
  };
  await upgrade(demo.keys.test, 'test');
  await upgrade(demo.keys.live, 'live');
  const accountKeys = { ...demo.accountKeys };
  for (const name of ['all_test', 'all_live', 'sibling_test'] as const) {
    accountKeys[name] = { ...accountKeys[name], scopes: await upgrade(accountKeys[name].key, accountKeys[name].environment) };
  }
  return { ...demo, accountKeys };
}

async function allStillWork(db: Db, projectId: string, demo: DemoKeys, now: Date): Promise<boolean> {
  const secrets = secretsOf(demo);
  if (secrets.length !== 6 || secrets.some((s) => typeof s !== 'string')) return false;
  const working = await db.apiKey.count({
    where: {
      projectId,
      digest: { in: secrets.map(digestOf) },
      status: { not: 'revoked' },
      OR: [{ revokedAt: null }, { revokedAt: { gt: now } }],
    },
  });
  return working === secrets.length;
}
