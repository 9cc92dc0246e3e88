// Where `qps listen` stopped, so that a restart resumes there: one small JSON file, keyed by a
// sha256 digest of the API key (never the key) and the forward-to URL, replaced atomically
// (written beside it, then renamed) so that a listener stopped mid-write leaves the old one whole.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type ListenPosition = { after: string; savedAt: string };
type StateFile = { version: 1; listen: Record<string, Record<string, ListenPosition>> };

/** $QPS_STATE_DIR, else $XDG_STATE_HOME/qps, else ~/.local/state/qps. */
export function stateDirectory(env: Record<string, string | undefined> = process.env): string {
  if (env.QPS_STATE_DIR) return env.QPS_STATE_DIR;
  return path.join(env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'), 'qps');
}

export const keyDigest = (apiKey: string) => `sha256:${createHash('sha256').update(apiKey).digest('hex')}`;

function read(file: string): StateFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StateFile>;
    if (parsed && typeof parsed.listen === 'object' && parsed.listen) return { version: 1, listen: parsed.listen };
  } catch {
    // None yet, or unreadable: start afresh (it only holds positions).
  }
  return { version: 1, listen: {} };
}

function write(file: string, state: StateFile): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The positions of one listener (API key and forward-to URL) in one file. */
export class ListenState {
  readonly file: string;
  private readonly key: string;
  private readonly forwardTo: string;

  constructor(
    options: { apiKey: string; forwardTo: string; directory?: string },
    private readonly now: () => Date = () => new Date(),
  ) {
    this.file = path.join(options.directory ?? stateDirectory(), 'listen.json');
    this.key = keyDigest(options.apiKey);
    this.forwardTo = options.forwardTo;
  }

  /** Where this listener stopped, or null. */
  load(): ListenPosition | null {
    const position = read(this.file).listen[this.key]?.[this.forwardTo];
    return position && typeof position.after === 'string' ? position : null;
  }

  /** Keeps the position (read again first: other listeners share the file). */
  save(after: string): ListenPosition {
    const state = read(this.file);
    const position = { after, savedAt: this.now().toISOString() };
    state.listen[this.key] = { ...state.listen[this.key], [this.forwardTo]: position };
    write(this.file, state);
    return position;
  }

  /** Forgets the position (one the service no longer knows). */
  clear(): void {
    const state = read(this.file);
    if (!state.listen[this.key]?.[this.forwardTo]) return;
    delete state.listen[this.key][this.forwardTo];
    if (Object.keys(state.listen[this.key]).length === 0) delete state.listen[this.key];
    write(this.file, state);
  }
}

/**
 * The position to keep while events are forwarded concurrently: the last event such that it and
 * every event before it (in stream order) are settled, acknowledged or given up. An event still
 * being retried holds the position back, so a restart sends it again rather than losing it.
 */
/** The position before an environment's first event (the service's `after=beginning`). */
export const FROM_BEGINNING = 'beginning';

export class Watermark {
  private readonly pending: { id: string; settled: boolean }[] = [];

  constructor(private position: string | null) {}

  get current(): string | null {
    return this.position;
  }

  get inFlight(): number {
    return this.pending.filter((entry) => !entry.settled).length;
  }

  /**
   * The stream said where it starts (its `ready.after`): the position, when nothing is pending.
   * An environment with no event yet is kept as `beginning`, so that what comes while the
   * listener is stopped is forwarded at its next start.
   */
  start(after: string | null): boolean {
    const position = after ?? this.position ?? FROM_BEGINNING;
    if (this.pending.length > 0 || position === this.position) return false;
    this.position = position;
    return true;
  }

  received(id: string): void {
    this.pending.push({ id, settled: false });
  }

  /** Marks the event settled; true when the position moved. */
  settled(id: string): boolean {
    const entry = this.pending.find((candidate) => candidate.id === id && !candidate.settled);
    if (entry) entry.settled = true;
    let moved = false;
    while (this.pending[0]?.settled) {
      this.position = this.pending.shift()!.id;
      moved = true;
    }
    return moved;
  }
}
