// The fixed retry schedule of webhook deliveries, apart from the engine that follows it
// (deliver-due-webhooks.ts): both engines read it, and the portal words it from here.

/** After the 1st..4th failure, wait this long; the 5th failure exhausts the delivery. */
export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * A Test endpoint may opt into the same schedule in seconds (`compressedRetries`), so that an
 * integration sees retries and exhaustion within a minute instead of hours.
 */
export const COMPRESSED_RETRY_DELAYS_MS = [2_000, 5_000, 10_000, 20_000] as const satisfies { length: (typeof RETRY_DELAYS_MS)['length'] };

const UNITS: [ms: number, one: string, many: string][] = [
  [3_600_000, 'hour', 'hours'],
  [60_000, 'minute', 'minutes'],
  [1_000, 'second', 'seconds'],
];

/** A delay as people say it: "30 seconds", "2 hours". */
export function delayInWords(ms: number): string {
  const [unit, one, many] = UNITS.find(([size]) => ms >= size && ms % size === 0) ?? UNITS[UNITS.length - 1];
  const n = Math.round(ms / unit);
  return `${n} ${n === 1 ? one : many}`;
}

/** "30 seconds, 5 minutes, 30 minutes and 2 hours". */
export function retryScheduleInWords(delays: readonly number[] = RETRY_DELAYS_MS): string {
  const words = delays.map(delayInWords);
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
