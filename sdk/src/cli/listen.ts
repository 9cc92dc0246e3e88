import { QuotePricingError } from '../index.js';
import { cannotReachService } from './explain.js';
import { forward, sleep } from './forward.js';
import { serverSentEvents } from './sse.js';
import { FROM_BEGINNING, Watermark, type ListenPosition, type ListenState } from './state.js';
import { clock, duration, listed } from './words.js';

type Ready = { after: string | null; retrySchedule: { standardMs: number[]; compressedMs: number[] } };

export type ListenOptions = {
  baseUrl: string;
  apiKey: string;
  forwardTo: string;
  secret: string;
  compressed: boolean;
  /** `--after`: wins over the saved position. */
  after: string | null;
  state: ListenState;
};

/** `12:03:04` today, `2025-01-31 12:03:04` another day. */
export function savedAt(position: ListenPosition, now = new Date()): string {
  const at = new Date(position.savedAt);
  if (Number.isNaN(at.getTime())) return position.savedAt;
  const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return day(at) === day(now) ? clock(at) : `${day(at)} ${clock(at)}`;
}

/** Where a listener starts: `--after`, else the saved position, else the newest event. */
export function startingPoint(after: string | null, saved: ListenPosition | null): { after: string | null; source: 'flag' | 'saved' | 'newest'; line: string } {
  if (after) return { after, source: 'flag', line: `Starting after event ${after} (--after).` };
  if (saved?.after === FROM_BEGINNING) return { after: saved.after, source: 'saved', line: `Resuming from the first event (there was none when this listener last ran; saved ${savedAt(saved)}).` };
  if (saved) return { after: saved.after, source: 'saved', line: `Resuming after event ${saved.after} (saved ${savedAt(saved)}).` };
  return { after: null, source: 'newest', line: 'Starting after the newest event (no saved position for this key and URL).' };
}

/** What a failed attempt waits, for the Ready line. */
export function scheduleLine(ready: Ready, compressed: boolean): string {
  const schedule = compressed ? ready.retrySchedule.compressedMs : ready.retrySchedule.standardMs;
  return (
    `a failed attempt is retried after ${listed(schedule.map(duration))}` +
    (compressed ? ` (compressed: the service retries after ${listed(ready.retrySchedule.standardMs.map(duration))}).` : '.')
  );
}

/**
 * Holds the stream open (reconnecting after the last event received) and forwards every event.
 * The position kept for the next start moves as events are settled (acknowledged or given up).
 */
export async function listen(options: ListenOptions): Promise<number> {
  const start = startingPoint(options.after, options.after ? null : options.state.load());
  console.log(start.line);
  let source = start.source;
  let lastId = start.after;
  let watermark = new Watermark(start.after);
  let schedule: number[] | null = null;
  let warnedUnsaved = false;
  const keep = () => {
    if (!watermark.current) return;
    try {
      options.state.save(watermark.current);
    } catch (error) {
      if (!warnedUnsaved) console.error(`${clock()}  cannot save the position in ${options.state.file} (${(error as Error).message}); a restart may not resume here`);
      warnedUnsaved = true;
    }
  };
  const stop = () => {
    const inFlight = watermark.inFlight;
    console.log(
      `\n${clock()}  Stopped.` +
        (watermark.current === FROM_BEGINNING ? ' The next start begins at the first event' : watermark.current ? ` The next start resumes after event ${watermark.current}` : ' Nothing was saved') +
        (inFlight > 0 ? ` (${inFlight} still being retried will be forwarded again).` : '.'),
    );
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  for (let failures = 0; ; ) {
    let response: Response;
    try {
      response = await fetch(`${options.baseUrl}/v1/event-stream`, {
        headers: { authorization: `Bearer ${options.apiKey}`, accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) },
      });
    } catch (error) {
      failures++;
      const wait = Math.min(30, 2 ** failures) * 1000;
      console.error(`${clock()}  ${cannotReachService(options.baseUrl, error)} Trying again in ${duration(wait)}.`);
      await sleep(wait);
      continue;
    }
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      // A position the service does not know (its data was reset, or another service's): a
      // saved one is dropped and the stream starts at the newest; one given with --after is an error.
      if (response.status === 400 && lastId && source === 'saved' && watermark.inFlight === 0) {
        console.error(`${clock()}  The service does not know the saved position (event ${lastId}): ${body?.error?.message ?? 'refused'} Starting from the newest event.`);
        options.state.clear();
        source = 'newest';
        lastId = null;
        watermark = new Watermark(null);
        continue;
      }
      const error = new QuotePricingError(response.status, body, response.headers, 'standard');
      // Too many streams open (one of ours may not be freed yet), a server full of them, or a
      // request the server timed out: wait as told, then try again.
      if (![408, 429, 503].includes(response.status)) {
        if (response.status === 400 && source === 'flag') throw new Error(`--after ${lastId}: ${error.message}`);
        throw error;
      }
      const wait = Math.max(1, Math.ceil(error.retryAfterSeconds ?? 5)) * 1000;
      console.error(`${clock()}  The service refused the stream for now (${response.status} ${error.code}): ${error.message} Trying again in ${duration(wait)}.`);
      await sleep(wait);
      continue;
    }
    failures = 0;
    for await (const message of serverSentEvents(response.body)) {
      if (message.event === 'ready') {
        const ready = JSON.parse(message.data) as Ready;
        // Where the stream starts: a reconnection, and the next start, resume there until an event comes.
        lastId ??= ready.after ?? FROM_BEGINNING;
        if (watermark.start(ready.after)) keep();
        // Once the service has accepted it, a position from --after is as good as a saved one.
        if (source !== 'newest' || ready.after) source = 'saved';
        schedule = options.compressed ? ready.retrySchedule.compressedMs : ready.retrySchedule.standardMs;
        console.log(`${clock()}  Ready: forwarding Test events to ${options.forwardTo}; ${scheduleLine(ready, options.compressed)}`);
      } else if (message.event === 'event') {
        const id = message.id ?? (JSON.parse(message.data) as { id: string }).id;
        lastId = id;
        // The service sends `ready` (with its schedule) before any event.
        if (!schedule) throw new Error('The stream sent an event before saying it was ready.');
        watermark.received(id);
        void forward(message.data, options, schedule)
          .catch((error: unknown) => console.error(`${clock()}  ${id}: ${(error as Error).message}`))
          .then(() => watermark.settled(id) && keep());
      }
    }
    console.error(`${clock()}  The stream ended; reconnecting after event ${lastId ?? '(none yet)'}.`);
    await sleep(1000);
  }
}
