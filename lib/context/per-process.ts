/**
 * A value worked out once per process and remembered on `globalThis`: Next.js bundles a module
 * into several chunks (and the direct routes into one more), and `globalThis` is what they all
 * share. A failed attempt is not remembered, so the next caller tries again.
 */
export function rememberedPerProcess<T>(name: string): { get(load: () => Promise<T>): Promise<T>; forget(): void } {
  const slots = globalThis as unknown as Record<string, Promise<T> | undefined>;
  const slot = `__quoteService${name}`;
  return {
    get(load) {
      const remembered = slots[slot];
      if (remembered) return remembered;
      const loading = load();
      slots[slot] = loading;
      loading.catch(() => {
        if (slots[slot] === loading) slots[slot] = undefined;
      });
      return loading;
    },
    forget() {
      slots[slot] = undefined;
    },
  };
}
