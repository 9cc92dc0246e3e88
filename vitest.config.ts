import { fileURLToPath } from 'node:url';
import { writeRouteTable } from './scripts/route-table.mjs';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

// The in-process service routes through the generated table of the route files: written before
// any test imports it, so that a route added since the last install is there.
writeRouteTable();

/** Only meaningful behind the pooler: run by the `pgbouncer` project alone. */
const PGBOUNCER_ONLY = 'test/db/pgbouncer.integration.test.ts';

/**
 * What lives at the socket, or needs processes of its own: the edge's timeouts and framing,
 * half-closed clients, the cluster, graceful stop, several instances, the job runner in a
 * server, the router in a production process. These run in the `http` project against a
 * production build; every other integration test reaches the service in-process.
 */
const HTTP_ONLY = [
  'test/api/hardening.integration.test.ts',
  'test/api/edge-answers.integration.test.ts',
  'test/api/response-framing.integration.test.ts',
  'test/api/request-log-edge.integration.test.ts',
  'test/api/rate-limit.integration.test.ts',
  'test/scale/**/*.integration.test.ts',
  'test/webhooks/runner.integration.test.ts',
  'test/webhooks/inngest.integration.test.ts',
  'test/sdk/cli-listen.integration.test.ts',
  'test/docs/*.integration.test.ts',
];

/** True when the command line names the project (`--project pgbouncer` or `--project=pgbouncer`). */
const named = (project: string): boolean =>
  process.argv.some((arg, i) => arg === `--project=${project}` || (arg === '--project' && process.argv[i + 1] === project));

// The service (in-process, as in the integration project), its tests and its migrations behind
// PgBouncer in transaction pooling mode: every statement the quote, idempotency, rate-limit and
// webhook paths make, through the pooler. Its global setup writes process.env as the integration
// one does, so it runs in a vitest invocation of its own, and only when named
// (`npm run test:pgbouncer`, scripts/test-all.ts): a plain `vitest run` keeps running unit and
// integration.
const pgbouncer: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'pgbouncer',
    include: [
      'test/api/api-key-quotes.integration.test.ts',
      'test/api/public-quotes.integration.test.ts',
      'test/api/idempotency.integration.test.ts',
      'test/api/idempotent-writes.integration.test.ts',
      'test/webhooks/delivery.integration.test.ts',
      'test/webhooks/order.integration.test.ts',
      PGBOUNCER_ONLY,
    ],
    globalSetup: ['test/setup/pgbouncer-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    // Its files mostly wait (webhook receivers, their timeouts): more workers than cores.
    maxWorkers: 4,
    // As the integration project: a worker is one long-lived service process.
    isolate: false,
  },
};

// The same tests' neighbours at the socket (HTTP_ONLY) against one production server. Its global
// setup writes process.env as the in-process one does, so it runs in a vitest invocation of its
// own, and only when named (`npm run test:http`, scripts/test-all.ts).
const http: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'http',
    include: HTTP_ONLY,
    globalSetup: ['test/setup/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    // Several files start servers of their own: two at a time on two cores.
    maxWorkers: 2,
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
          // As the integration project's (vitest runs projects with one setting side by side).
          maxWorkers: 4,
          // Pure modules: a worker imports them once for all its files.
          isolate: false,
          // The property tests run thousands of cases (1–3 s alone); on a machine the build
          // shares they need more than the default 5 s. A guard, not a speed assertion.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['lib/**/*.integration.test.ts', 'test/**/*.integration.test.ts'],
          exclude: [...configDefaults.exclude, PGBOUNCER_ONLY, ...HTTP_ONLY],
          globalSetup: ['test/setup/in-process-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // One database for the run; files run in parallel against it, each worker its own service.
          fileParallelism: true,
          // The files mostly wait (on PostgreSQL, on webhook receivers and their timeouts): more
          // workers than cores (vitest's default is one fewer than the cores: one, on two).
          maxWorkers: 4,
          // A worker is one long-lived service process, as a server is: it imports the service
          // once and answers every file's requests (importing it per file was a third of the run).
          isolate: false,
        },
      },
      ...(named('http') ? [http] : []),
      ...(named('pgbouncer') ? [pgbouncer] : []),
    ],
  },
});
