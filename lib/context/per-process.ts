import { processState } from '../process/state';

declare module '../process/state' {
  interface ProcessState {
    /** Values worked out once per process, by name. */
    remembered?: Map<string, Promise<unknown>>;
  }
}

/**
 * A value worked out once per process, whichever copy of a module asks (the process state,
 * lib/process/state.ts). A failed attempt is not remembered, so the next caller tries again.
 */
export function rememberedPerProcess<T>(name: string): { get(load: () => Promise<T>): Promise<T>; forget(): void } {
  const slots = (processState.remembered ??= new Map()) as Map<string, Promise<T>>;
  return {
    get(load) {
      const remembered = slots.get(name);
      if (remembered) return remembered;
      const loading = load();
      slots.set(name, loading);
      loading.catch(() => {
        if (slots.get(name) === loading) slots.delete(name);
      });
      return loading;
    },
    forget() {
      slots.delete(name);
    },
  };
}
