import { webhooks } from '../index.js';
import { unreachableReason } from './explain.js';
import { clock, duration, plural } from './words.js';

export const ATTEMPT_TIMEOUT_MS = 10_000;

export type Forwarded = { acknowledged: boolean; attempts: number; outcome: string };

/**
 * Sends one event to the local URL, signed, and retries it on the schedule until it is
 * acknowledged (a 2xx) or given up; prints a line per attempt.
 */
export async function forward(body: string, options: { forwardTo: string; secret: string }, schedule: number[]): Promise<Forwarded> {
  const event = JSON.parse(body) as { id: string; type: string };
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    let outcome: string;
    let acknowledged = false;
    try {
      const response = await fetch(options.forwardTo, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'qps-listen',
          'Service-Event-Id': event.id,
          'Service-Attempt': String(attempt),
          'Service-Signature': webhooks.sign(body, options.secret),
        },
        body,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      acknowledged = response.ok;
      outcome = String(response.status);
    } catch (error) {
      outcome = (error as Error).name === 'TimeoutError' ? `no answer within ${duration(ATTEMPT_TIMEOUT_MS)}` : `not reached (${unreachableReason(error)})`;
    }
    const line = `${clock()}  ${event.type}  ${event.id}  → ${outcome} (${Math.round(performance.now() - started)} ms, attempt ${attempt})`;
    if (acknowledged) {
      console.log(line);
      return { acknowledged, attempts: attempt, outcome };
    }
    if (attempt > schedule.length) {
      console.log(attempt === 1 ? line : `${line}; given up after ${plural(attempt, 'attempt')}`);
      return { acknowledged, attempts: attempt, outcome };
    }
    console.log(`${line}; retrying in ${duration(schedule[attempt - 1])}`);
    await sleep(schedule[attempt - 1]);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
