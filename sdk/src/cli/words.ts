/** `1 second`, `2 seconds`: a count and its noun, singular for exactly one. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** A duration in the largest whole unit: `1 second`, `5 minutes`, `2 hours` (`1.5 seconds` when none is whole). */
export function duration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms >= 60_000 && ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  return plural(Math.round(ms) / 1000, 'second');
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The wall-clock time of a line: `12:03:04`, local. */
export function clock(at = new Date()): string {
  return at.toTimeString().slice(0, 8);
}
