// Next.js calls register() once when a server process starts: the place to start the
// in-process job runner when Inngest is not configured. Node-only code lives in the imported
// module, so that the Edge build of this file has none to warn about.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { registerInProcessRunner } = await import('./lib/jobs/register-in-process-runner');
  registerInProcessRunner();
}
