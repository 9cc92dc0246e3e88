import { z } from 'zod';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors/service-error';
import { ATTEMPT_TIMEOUT_MS, type SendResult } from './send-webhook';
import { takeEndpointTestFailure } from './store';

/**
 * Failures on demand for Test endpoints: "fail the next N attempts", "answer with status X",
 * "time out". While one is set, each attempt fails that way instead of being sent, and counts
 * like a real failure (the retry schedule, exhaustion, replay), so an integration can watch
 * what it will meet in production. Live endpoints refuse it: Live is never disturbed on purpose.
 */
const remaining = z.number().int().min(1).max(1000).nullable().default(null).describe('Attempts left to fail this way; null: until switched off.');

export const testFailureSchema = z
  .discriminatedUnion('mode', [
    z.strictObject({
      mode: z.literal('status'),
      status: z.number().int().min(300).max(599).default(500).describe('The status each attempt is answered with.'),
      remaining,
    }),
    z.strictObject({ mode: z.literal('timeout').describe(`Each attempt fails as one unanswered for ${ATTEMPT_TIMEOUT_MS / 1000} s.`), remaining }),
  ])
  .meta({ id: 'WebhookTestFailure' });

export type TestFailure = z.output<typeof testFailureSchema>;

/** The columns a test failure is kept in. */
export type TestFailureColumns = { testFailureMode: 'status' | 'timeout' | null; testFailureStatus: number | null; testFailureRemaining: number | null };

export function testFailureColumns(failure: TestFailure | null): TestFailureColumns {
  if (!failure) return { testFailureMode: null, testFailureStatus: null, testFailureRemaining: null };
  return { testFailureMode: failure.mode, testFailureStatus: failure.mode === 'status' ? failure.status : null, testFailureRemaining: failure.remaining };
}

export function testFailureView(row: TestFailureColumns): TestFailure | null {
  if (row.testFailureMode === 'status') return { mode: 'status', status: row.testFailureStatus ?? 500, remaining: row.testFailureRemaining };
  if (row.testFailureMode === 'timeout') return { mode: 'timeout', remaining: row.testFailureRemaining };
  return null;
}

/** A Live endpoint may not fail on purpose, nor retry on the compressed schedule. */
export function refuseOnLive(environment: 'test' | 'live', changes: { testFailure?: TestFailure | null; compressedRetries?: boolean }): void {
  if (environment === 'test') return;
  if (changes.testFailure) {
    throw new ServiceError('invalid_request', 'Only a Test endpoint can be set to fail: Live is never disturbed on purpose.', { param: 'testFailure' });
  }
  if (changes.compressedRetries) {
    throw new ServiceError('invalid_request', 'Only a Test endpoint can retry on the compressed schedule.', { param: 'compressedRetries' });
  }
}

/**
 * The attempt's simulated result when the endpoint is set to fail (one failure taken), else
 * null: the attempt is sent.
 */
export async function takeTestFailure(db: DbOrTx, endpointId: string): Promise<SendResult | null> {
  const taken = await takeEndpointTestFailure(db, endpointId);
  if (!taken) return null;
  const left = taken.remaining === null ? 'until switched off' : `${taken.remaining - 1} more after this one`;
  if (taken.mode === 'timeout') {
    return { status: null, excerpt: null, headers: null, error: `timed out after ${ATTEMPT_TIMEOUT_MS / 1000} s (simulated: this Test endpoint is set to time out, ${left}; nothing was sent)`, latencyMs: 0 };
  }
  return {
    status: taken.status ?? 500,
    excerpt: `Simulated: this Test endpoint is set to answer ${taken.status ?? 500} (${left}); nothing was sent.`,
    headers: null,
    error: null,
    latencyMs: 0,
  };
}
