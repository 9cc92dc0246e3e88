/**
 * What a service process holds once, whichever copy of a module asks: the API's router bundle
 * and Next.js's chunks (the portal, the job runner started by instrumentation.ts) each load
 * their own copy of lib/, and `npm run dev` reloads modules. Every slot is declared with its type
 * by the module that owns it, as an addition to this interface:
 *
 *     declare module '../process/state' { interface ProcessState { db?: Handles } }
 *
 * and kept under one key of `globalThis`; nothing else is put there. This module imports
 * nothing, so that every domain may use it without a ring.
 */
export interface ProcessState {}

/** The key scripts/serve.mjs reads `jobsStopped` under (it is plain JavaScript). */
export const PROCESS_STATE_KEY = Symbol.for('quote-pricing-service.process-state');

const holder = globalThis as typeof globalThis & { [PROCESS_STATE_KEY]?: ProcessState };

export const processState: ProcessState = (holder[PROCESS_STATE_KEY] ??= {});
