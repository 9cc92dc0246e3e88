'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerOf } from '@/lib/http/contract';
import type { impactContract } from '@/app/v1/books/contract';
import { ApiError, apiErrorOf, unreachable, type ApiErrorBody } from '../../../../_components/api';

// The impact route's answer, typed by its contract (not an envelope apiFetch reads: a stream of lines).
type ImpactResult = AnswerOf<typeof impactContract>;
export type Impact = NonNullable<ImpactResult['impact']>;

export type ImpactRequestBody = {
  versionId?: string;
  artifact?: unknown;
  environment: 'test' | 'live';
  window: '24h' | '7d' | '30d';
  offeringId?: string;
};

export type ImpactRunState =
  | { status: 'idle' }
  | { status: 'running'; progress: { done: number; total: number } | null }
  | { status: 'done'; result: ImpactResult; request: ImpactRequestBody }
  | { status: 'error'; error: unknown };

type Line =
  | { progress: { done: number; total: number } }
  | { data: ImpactResult; requestId: string }
  | { error: ApiErrorBody };

/**
 * Runs POST /v1/books/{id}/impact as a progress stream (NDJSON), so that a long window shows a
 * progress bar. A new run, or leaving the page, cancels the one in flight.
 */
export function useImpactRun(bookId: string) {
  const [state, setState] = useState<ImpactRunState>({ status: 'idle' });
  const inFlight = useRef<AbortController | null>(null);
  useEffect(() => () => inFlight.current?.abort(), []);

  const run = useCallback(
    async (request: ImpactRequestBody) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setState({ status: 'running', progress: null });
      try {
        const result = await streamImpact(bookId, request, controller.signal, (progress) => {
          if (!controller.signal.aborted) setState({ status: 'running', progress });
        });
        if (!controller.signal.aborted) setState({ status: 'done', result, request });
      } catch (error) {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      }
    },
    [bookId],
  );
  return { state, run };
}

async function streamImpact(
  bookId: string,
  request: ImpactRequestBody,
  signal: AbortSignal,
  onProgress: (progress: { done: number; total: number }) => void,
): Promise<ImpactResult> {
  let response: Response;
  try {
    response = await fetch(`/v1/books/${bookId}/impact`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw unreachable();
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => null)) as Extract<Line, { error: unknown }> | null;
    throw apiErrorOf(body?.error, response);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, newline)) as Line;
      buffered = buffered.slice(newline + 1);
      if ('progress' in line) onProgress(line.progress);
      else if ('data' in line) return line.data;
      else throw apiErrorOf(line.error, response);
    }
    if (done) throw new ApiError(0, 'network', 'The connection ended before the impact was measured. Try again.', response.headers.get('x-request-id'));
  }
}
