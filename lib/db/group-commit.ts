/**
 * Group commit: each caller hands in one row, and rows that arrive while `maxInFlight` writes are
 * running wait and go together in the next write (at most `maxRows` at once). Alone, a row is
 * written at once; under load, many requests share one statement and one commit, which costs
 * PostgreSQL and the server less per row than a statement each. A write of several rows that
 * fails is retried row by row, so each caller gets its own outcome or error, and one bad row
 * never fails the others.
 */
export class GroupCommit<Row, Outcome> {
  private readonly waiting: { row: Row; resolve: (outcome: Outcome) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    /** Writes the rows in one statement; returns each row's outcome, in the rows' order. */
    private readonly write: (rows: Row[]) => Promise<Outcome[]>,
    private readonly limits: { maxInFlight: number; maxRows: number },
  ) {}

  submit(row: Row): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      this.startWrites();
    });
  }

  private startWrites(): void {
    while (this.inFlight < this.limits.maxInFlight && this.waiting.length > 0) {
      this.inFlight++;
      void this.run(this.waiting.splice(0, this.limits.maxRows));
    }
  }

  /** A write has ended: the rows waiting for it go to the database. */
  private writeEnded(): void {
    this.inFlight--;
    this.startWrites();
  }

  /**
   * One GroupCommit per client (a database client: its pool), made on first use: what each
   * batched writer of the service keeps.
   */
  static perClient<Client extends object, Row, Outcome>(
    write: (client: Client, rows: Row[]) => Promise<Outcome[]>,
    limits: { maxInFlight: number; maxRows: number },
  ): (client: Client) => GroupCommit<Row, Outcome> {
    const commits = new WeakMap<Client, GroupCommit<Row, Outcome>>();
    return (client) => {
      let commit = commits.get(client);
      if (!commit) commits.set(client, (commit = new GroupCommit((rows) => write(client, rows), limits)));
      return commit;
    };
  }

  private async run(batch: typeof this.waiting): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.write(batch.map((waiting) => waiting.row));
    } catch (error) {
      await this.retryAlone(batch, error);
      return this.writeEnded();
    }
    // The next batch is sent before this one's callers go on: the answers they make (the rest
    // of their requests' work) then overlap its statement instead of delaying it.
    this.writeEnded();
    batch.forEach((waiting, i) => waiting.resolve(outcomes[i]));
  }

  private async retryAlone(batch: typeof this.waiting, error: unknown): Promise<void> {
    if (batch.length === 1) return batch[0].reject(error);
    for (const waiting of batch) {
      try {
        waiting.resolve((await this.write([waiting.row]))[0]);
      } catch (alone) {
        waiting.reject(alone);
      }
    }
  }
}
