// The pure part of reading from a replica (lib/db/read-replica.ts): WAL positions, what each
// caller wrote last, and one query shared by callers that arrive while it runs.

/** A WAL position (`pg_lsn`, written `16/B374D848`) as a number, or null when it is not one. */
export function parseLsn(text: string | null | undefined): bigint | null {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text ?? '');
  return match ? (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`) : null;
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

type Mark = { lsn: bigint; pending: number; since: number; evicted: boolean };

/**
 * What each caller (an API key, a person) wrote last: the primary's WAL position after their
 * latest write. A read by a caller may go to the replica once it has replayed that far. Between
 * a write and the answer of the query that gives its position, the mark is pending: the caller
 * reads from the primary. A position that never comes (the query failed) stops counting after
 * `pendingLimitMs`. Bounded: the callers who wrote longest ago are forgotten first, and what they
 * wrote becomes a floor every caller without a mark of their own waits for.
 */
export class WriteMarks {
  private readonly marks = new Map<string, Mark>();
  private floor = 0n;
  private readonly evictedPending = new Set<Mark>();

  constructor(
    private readonly capacity = 10_000,
    private readonly pendingLimitMs = 10_000,
  ) {}

  get size(): number {
    return this.marks.size;
  }

  /** `who` has just written (committed). Returns how to settle it with the primary's position after the write (null: unknown). */
  wrote(who: string, now: number): (lsn: bigint | null) => void {
    const mark = this.marks.get(who) ?? { lsn: 0n, pending: 0, since: now, evicted: false };
    mark.pending++;
    mark.since = now;
    // Most recent writers last: Map keeps insertion order, so the first key is the oldest.
    this.marks.delete(who);
    this.marks.set(who, mark);
    while (this.marks.size > this.capacity) {
      const [oldest, evicted] = this.marks.entries().next().value!;
      this.marks.delete(oldest);
      evicted.evicted = true;
      this.floor = max(this.floor, evicted.lsn);
      if (evicted.pending > 0) this.evictedPending.add(evicted);
    }
    let settled = false;
    return (lsn) => {
      if (settled) return;
      settled = true;
      // Unknown: the mark stays pending until pendingLimitMs has passed since the write.
      if (lsn === null) return;
      mark.lsn = max(mark.lsn, lsn);
      mark.pending--;
      if (mark.evicted) {
        this.floor = max(this.floor, mark.lsn);
        if (mark.pending === 0) this.evictedPending.delete(mark);
      }
    };
  }

  /**
   * The position the replica must have replayed for a read by `who` (null: anyone without a
   * mark): 0n when any will do, 'pending' while a write's position is not known yet.
   */
  needed(who: string | null, now: number): bigint | 'pending' {
    for (const mark of this.evictedPending) {
      if (now - mark.since >= this.pendingLimitMs) this.evictedPending.delete(mark);
    }
    if (this.evictedPending.size > 0) return 'pending';
    const mark = who === null ? undefined : this.marks.get(who);
    if (!mark) return this.floor;
    if (mark.pending > 0 && now - mark.since < this.pendingLimitMs) return 'pending';
    return max(this.floor, mark.lsn);
  }

  /** The replica has replayed up to `lsn`: `who`'s mark, when settled and passed, is no longer needed. */
  replayed(who: string | null, lsn: bigint): void {
    const mark = who === null ? undefined : this.marks.get(who);
    if (mark && mark.pending === 0 && mark.lsn <= lsn) this.marks.delete(who!);
  }
}

/**
 * One query for many callers, each getting an answer that started after they asked: a caller
 * who arrives while a query runs waits for the next one (the running one may have read before
 * the caller's write committed), and every caller arriving meanwhile shares that next one. At
 * most one runs and one waits, however many ask.
 */
export class SharedQuery<T> {
  private running: Promise<T> | undefined;
  private queued: Promise<T> | undefined;

  constructor(private readonly query: () => Promise<T>) {}

  ask(): Promise<T> {
    if (!this.running) return this.start();
    this.queued ??= this.running.then(
      () => this.next(),
      () => this.next(),
    );
    return this.queued;
  }

  private next(): Promise<T> {
    this.queued = undefined;
    return this.start();
  }

  private start(): Promise<T> {
    const running = this.query();
    this.running = running;
    const done = () => {
      if (this.running === running) this.running = undefined;
    };
    running.then(done, done);
    return running;
  }
}
