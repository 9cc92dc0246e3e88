// Next.js calls register() once when a server process starts: the place to check the settings
// (a malformed or misspelt one stops the process, named) and to start the in-process job runner
// when Inngest is not configured. Node-only code lives in the imported modules, so that the Edge
// build of this file has none to warn about. NEXT_RUNTIME is Next's own, inlined by its build.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { settingsOrExit } = await import('./lib/settings/settings-or-exit');
  settingsOrExit();
  const { registerInProcessRunner } = await import('./lib/jobs/register-in-process-runner');
  registerInProcessRunner();
}
