'use client';

import { startTransition, useEffect, useRef, useState } from 'react';
import { answerDraftCheck, type DraftCheckAnswer, type DraftCheckRequest, type Example } from '../../_lib/live-check';

export type DraftCheckState = DraftCheckAnswer & {
  /** The draft these problems and prices belong to: the draft being edited, or one a little older. */
  checked: unknown;
  /** The draft changed (or its examples did) and the newer answer is being worked out. */
  pending: boolean;
};

type Checker = { post: (request: DraftCheckRequest) => void; stop: () => void };

/** A Web Worker when the browser has one; otherwise the same work on this thread, after the render. */
function startChecker(onAnswer: (answer: DraftCheckAnswer) => void): Checker {
  try {
    const worker = new Worker(new URL('../../_lib/draft-check.worker.ts', import.meta.url));
    worker.onmessage = (event: MessageEvent<DraftCheckAnswer>) => onAnswer(event.data);
    return { post: (request) => worker.postMessage(request), stop: () => worker.terminate() };
  } catch {
    let last: Parameters<typeof answerDraftCheck>[1] = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    return {
      post: (request) => {
        timer = setTimeout(() => {
          const { answer, check } = answerDraftCheck(request, last);
          last = check;
          onAnswer(answer);
        });
      },
      stop: () => clearTimeout(timer),
    };
  }
}

/**
 * The draft's problems and the examples' prices, worked out away from typing: one request at a
 * time, always for the newest draft, so that a burst of keystrokes costs one check, not one each.
 */
export function useDraftCheck(draft: unknown, examples: readonly Example[]): DraftCheckState {
  // The first answer is worked out on the spot: the page (and the server's render) starts with it.
  const [answered, setAnswered] = useState(() => ({ draft, examples, answer: answerDraftCheck({ seq: 0, draft, examples }, null).answer }));
  const wanted = useRef({ draft, examples });
  wanted.current = { draft, examples };
  const flow = useRef<{ checker: Checker | null; seq: number; inFlight: { seq: number; draft: unknown; examples: readonly Example[] } | null; workerDraft: unknown; last: { draft: unknown; examples: readonly Example[] } }>({
    checker: null,
    seq: 0,
    inFlight: null,
    workerDraft: undefined,
    last: { draft, examples },
  });

  const pump = useRef(() => {
    const f = flow.current;
    const next = wanted.current;
    if (!f.checker || f.inFlight || (next.draft === f.last.draft && next.examples === f.last.examples)) return;
    const seq = ++f.seq;
    const request: DraftCheckRequest = next.draft === f.workerDraft ? { seq, examples: next.examples } : { seq, draft: next.draft, examples: next.examples };
    f.inFlight = { seq, ...next };
    f.workerDraft = next.draft;
    f.checker.post(request);
  });

  useEffect(() => {
    const f = flow.current;
    f.checker = startChecker((answer) => {
      const sent = f.inFlight;
      if (!sent || sent.seq !== answer.seq) return;
      f.inFlight = null;
      f.last = { draft: sent.draft, examples: sent.examples };
      // Showing the answer gives way to typing: a keystroke interrupts it rather than waits.
      startTransition(() => setAnswered({ draft: sent.draft, examples: sent.examples, answer }));
      pump.current();
    });
    pump.current();
    return () => {
      f.checker?.stop();
      f.checker = null;
      f.inFlight = null;
      f.workerDraft = undefined;
    };
  }, []);

  useEffect(() => pump.current(), [draft, examples]);

  return { ...answered.answer, checked: answered.draft, pending: answered.draft !== draft || answered.examples !== examples };
}
