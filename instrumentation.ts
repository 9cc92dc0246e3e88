// Next.js calls register() once when a server process starts: the place to start the
// in-process job runner (webhook delivery, key sweep) when Inngest is not configured.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { jobEngine, startInProcessRunner } = await import('./lib/jobs/in-process-runner');
  if (jobEngine() !== 'in-process' || !process.env.DATABASE_URL) return;
  const { getDb } = await import('./lib/db/client');
  const runner = startInProcessRunner({ db: getDb() });
  // scripts/serve.mjs waits for this (bounded) before the process exits.
  const stopping = globalThis as typeof globalThis & { __quoteServiceJobsStopped?: Promise<void> };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void (stopping.__quoteServiceJobsStopped ??= runner.stop()));
}
