// Undo and redo over whole drafts. Drafts are never changed in place, so a step back is a
// pointer. Keystrokes in one field within a second make one step, as in any editor.

export type DraftHistory<T> = { past: T[]; present: T; future: T[]; group: string | null; at: number };

export type HistoryAction<T> =
  | { type: 'edit'; update: (present: T) => T; group?: string; now: number }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'reset'; present: T };

/** Edits of the same group this close together are one undo step. */
export const COALESCE_MS = 1000;
/** Steps kept; older ones are dropped. */
const MAX_STEPS = 200;

export function startHistory<T>(present: T): DraftHistory<T> {
  return { past: [], present, future: [], group: null, at: 0 };
}

export function historyReducer<T>(state: DraftHistory<T>, action: HistoryAction<T>): DraftHistory<T> {
  switch (action.type) {
    case 'edit': {
      const next = action.update(state.present);
      if (next === state.present) return state;
      const coalesce = action.group !== undefined && action.group === state.group && action.now - state.at < COALESCE_MS && state.past.length > 0;
      const past = coalesce ? state.past : [...state.past, state.present].slice(-MAX_STEPS);
      return { past, present: next, future: [], group: action.group ?? null, at: action.now };
    }
    case 'undo': {
      if (state.past.length === 0) return state;
      return { past: state.past.slice(0, -1), present: state.past[state.past.length - 1], future: [state.present, ...state.future], group: null, at: 0 };
    }
    case 'redo': {
      if (state.future.length === 0) return state;
      return { past: [...state.past, state.present], present: state.future[0], future: state.future.slice(1), group: null, at: 0 };
    }
    case 'reset':
      return startHistory(action.present);
  }
}
