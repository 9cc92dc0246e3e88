/**
 * Polls `check` until it gives a value (anything but undefined, null or false), for things
 * written off the request path: batched request logs, webhook deliveries, job runs.
 */
export async function eventually<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 5000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
