declare module 'async-exit-hook' {
  type Hook = ((done: () => void) => void) | (() => void);
  function exitHook(hook: Hook): void;
  namespace exitHook {
    function unhookEvent(event: string): void;
    function hookedEvents(): string[];
  }
  export default exitHook;
}
