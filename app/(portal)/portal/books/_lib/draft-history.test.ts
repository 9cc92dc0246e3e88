import { describe, expect, it } from 'vitest';
import { COALESCE_MS, historyReducer, startHistory, type HistoryAction } from './draft-history';

const edit = (value: string, group?: string, now = 0): HistoryAction<string> => ({ type: 'edit', update: () => value, group, now });

describe('undo and redo', () => {
  it('steps back and forth through edits, and an edit after an undo drops what was undone', () => {
    let h = startHistory('a');
    h = historyReducer(h, edit('b'));
    h = historyReducer(h, edit('c'));
    h = historyReducer(h, { type: 'undo' });
    expect(h.present).toBe('b');
    h = historyReducer(h, { type: 'redo' });
    expect(h.present).toBe('c');
    h = historyReducer(h, { type: 'undo' });
    h = historyReducer(h, edit('d'));
    expect(h.future).toEqual([]);
    expect(historyReducer(h, { type: 'redo' })).toBe(h);
  });

  it('makes one step of keystrokes in one field within a second, and a new one after a pause or in another field', () => {
    let h = startHistory('');
    h = historyReducer(h, edit('1', 'price', 0));
    h = historyReducer(h, edit('12', 'price', 300));
    h = historyReducer(h, edit('120', 'price', 600));
    expect(h.past).toEqual(['']);
    h = historyReducer(h, edit('120.5', 'price', 600 + COALESCE_MS));
    expect(h.past).toEqual(['', '120']);
    h = historyReducer(h, edit('x', 'label', 1700));
    expect(h.past).toEqual(['', '120', '120.5']);
    expect(historyReducer(h, { type: 'undo' }).present).toBe('120.5');
  });

  it('records nothing for an edit that changes nothing', () => {
    const h = startHistory('a');
    expect(historyReducer(h, { type: 'edit', update: (x) => x, now: 0 })).toBe(h);
  });
});
