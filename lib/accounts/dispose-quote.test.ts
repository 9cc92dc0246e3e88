import { describe, expect, it } from 'vitest';
import { disposeQuote } from './dispose-quote';

// Every cell of the mapping in docs/account-surface.md.
describe('disposeQuote', () => {
  const cases = [
    // decision, pricing_mode, autonomy -> disposition, state
    ['priced', 'instant', 'autonomous', 'send', 'quoted'],
    ['priced', 'instant', 'approval_first', 'hold', 'awaiting_approval'],
    ['priced', 'instant', 'observe', 'observe', 'observed'],
    ['priced', 'quote', 'autonomous', 'hold', 'awaiting_approval'],
    ['priced', 'quote', 'approval_first', 'hold', 'awaiting_approval'],
    ['priced', 'quote', 'observe', 'observe', 'observed'],
    ['needs_input', 'quote', 'autonomous', 'unpriced', 'new'],
    ['needs_input', 'quote', 'approval_first', 'unpriced', 'new'],
    ['needs_input', 'quote', 'observe', 'unpriced', 'new'],
    ['failed', 'unavailable', 'autonomous', 'unpriced', 'new'],
    ['failed', 'unavailable', 'approval_first', 'unpriced', 'new'],
    ['failed', 'unavailable', 'observe', 'unpriced', 'new'],
  ] as const;
  for (const [decision, mode, autonomy, disposition, state] of cases) {
    it(`${decision}/${mode} in ${autonomy} books: ${disposition} -> ${state}`, () => {
      expect(disposeQuote({ decision, pricing_mode: mode }, autonomy)).toEqual({ disposition, state });
    });
  }
});
