// The editor's checking and pricing, off the page's thread: a book of 1,000 rules takes tens of
// milliseconds to validate and compile, which would otherwise sit between keystrokes.
import { answerDraftCheck, type DraftCheckRequest } from './live-check';

let last: Parameters<typeof answerDraftCheck>[1] = null;

self.onmessage = (event: MessageEvent<DraftCheckRequest>) => {
  const { answer, check } = answerDraftCheck(event.data, last);
  last = check;
  self.postMessage(answer);
};
