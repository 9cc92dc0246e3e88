import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Only meaningful behind the pooler: run by the `pgbouncer` project alone. */
const PGBOUNCER_ONLY = 'test/db/pgbouncer.integration.test.ts';

/** True when the command line names the project (`--project pgbouncer` or `--project=pgbouncer`). */
const named = (project: string): boolean =>
  process.argv.some((arg, i) => arg === `--project=${project}` || (arg === '--project' && process.argv[i + 1] === project));

// The service, its tests and its migrations behind PgBouncer in transaction pooling mode. Its
// global setup writes process.env as the integration one does, so it runs in a vitest invocation
// of its own, and only when named (`npm run test:pgbouncer`, scripts/test-all.ts): a plain
// `vitest run` keeps running unit and integration.
const pgbouncer: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'pgbouncer',
    include: [
      'test/api/api-key-quotes.integration.test.ts',
      'test/api/public-quotes.integration.test.ts',
      'test/api/idempotency.integration.test.ts',
      'test/api/idempotent-writes.integration.test.ts',
      'test/api/rate-limit.integration.test.ts',
      'test/webhooks/delivery.integration.test.ts',
      'test/webhooks/order.integration.test.ts',
      PGBOUNCER_ONLY,
    ],
    globalSetup: ['test/setup/pgbouncer-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: true,
  },
};

export default defineConfig({
  resolve: { alias: { '@': root } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['lib/**/*.integration.test.ts', 'test/**/*.integration.test.ts'],
          exclude: [...configDefaults.exclude, PGBOUNCER_ONLY],
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // One server and one database for the run; files run in parallel against it.
          fileParallelism: true,
        },
      },
      ...(named('pgbouncer') ? [pgbouncer] : []),
    ],
  },
});
