import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client';
import { getDb, getPool, newPool, poolSize, survivesIdleErrors } from './client';
import { registerPool } from './sql';
import { parseLsn, SharedQuery, WriteMarks } from './read-your-writes';
import { logger } from '../observability/logger';
import { processState } from '../process/state';
import { settings } from '../settings/settings';

declare module '../process/state' {
  interface ProcessState {
    /** The read replica of DATABASE_READ_URL (null: none configured), and what the process knows of it. */
    readReplica?: ReadReplica | null;
  }
}

/** How long the replica's replayed position is trusted before it is asked again. */
const REPLAY_PROBE_MS = 20;
/** While the replica is unreachable, how often it is tried again (in the background). */
const RETRY_MS = 1_000;
/** Connecting to the replica may take this long; then the primary answers. */
const CONNECT_TIMEOUT_MS = 2_000;

type Handles = { prisma: PrismaClient; pool: pg.Pool };

/**
 * The read replica of DATABASE_READ_URL: a streaming standby of DATABASE_URL that the read-heavy
 * verbs may read from (ctx.readDb), and the rules that keep it honest:
 * - read your writes: a caller (an API key, a person) who wrote reads from the replica only once
 *   it has replayed the primary's WAL position after that write (WriteMarks);
 * - a replica that cannot be reached (refused, timed out, connection lost, shutting down) or that
 *   cancels a query for a conflict with recovery: the query is answered by the primary, and reads
 *   stay on the primary until the replica answers again.
 */
export class ReadReplica {
  readonly prisma: PrismaClient;
  readonly pool: pg.Pool;
  private readonly marks = new WriteMarks();
  private readonly primaryPosition: SharedQuery<bigint>;
  private replay = { lsn: null as bigint | null, at: -Infinity };
  private probing: Promise<bigint | null> | undefined;
  private reachable = true;
  private lastTry = -Infinity;
  /** Connects to the replica itself, never falling back (the probe must ask the replica). */
  private readonly connectToReplica: () => Promise<pg.PoolClient>;

  constructor(
    url: string,
    private readonly primary: Handles,
    size = poolSize(),
  ) {
    this.pool = newPool(url, size, { connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    survivesIdleErrors(this.pool);
    this.connectToReplica = answeredByPrimaryWhenUnreachable(this.pool, primary.pool, (error) => this.unreachable(error));
    this.prisma = new PrismaClient({ adapter: new PrismaPg(this.pool) });
    registerPool(this.prisma, this.pool);
    this.primaryPosition = new SharedQuery(async () => {
      const { rows } = await primary.pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      return parseLsn(rows[0]?.lsn)!;
    });
  }

  /**
   * The client a read by `who` (null: nobody in particular) goes to: the replica when it has
   * replayed everything `who` wrote (and `atLeast`, a position the caller brought back from
   * another process), else the primary. Costs no query for a caller without recent writes.
   */
  async readerFor(who: string | null, atLeast: bigint | null = null): Promise<PrismaClient> {
    if (!this.reachable) {
      this.tryAgainInBackground();
      return this.primary.prisma;
    }
    const needed = this.marks.needed(who, performance.now());
    if (needed === 'pending') return this.primary.prisma;
    const position = atLeast !== null && atLeast > needed ? atLeast : needed;
    if (position === 0n) return this.prisma;
    const replayed = await this.replayed(position);
    if (replayed === null || replayed < position) return this.primary.prisma;
    this.marks.replayed(who, replayed);
    return this.prisma;
  }

  /**
   * `who` has just written (committed). Resolves to the primary's WAL position after the write
   * (null when it could not be read: `who` then reads from the primary for a while); until then
   * `who` reads from the primary. One query serves every write that ends meanwhile.
   */
  noteWrite(who: string): Promise<bigint | null> {
    const settle = this.marks.wrote(who, performance.now());
    return this.primaryPosition.ask().then(
      (lsn) => {
        settle(lsn);
        return lsn;
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'could not read the primary WAL position after a write');
        settle(null);
        return null;
      },
    );
  }

  async close(): Promise<void> {
    await this.prisma.$disconnect();
    await this.pool.end().catch(() => undefined);
  }

  /** The replica's replayed position: the remembered one when it is recent or already far enough. */
  private async replayed(atLeast: bigint): Promise<bigint | null> {
    const known = this.replay;
    if ((known.lsn !== null && known.lsn >= atLeast) || performance.now() - known.at < REPLAY_PROBE_MS) return known.lsn;
    return this.probe();
  }

  /** Asks the replica how far it has replayed (null: not a standby, or not reachable). One question at a time. */
  private probe(): Promise<bigint | null> {
    this.probing ??= (async () => {
      this.lastTry = performance.now();
      let connected = false;
      try {
        const client = await this.connectToReplica();
        connected = true;
        try {
          const { rows } = await client.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
          const lsn = parseLsn(rows[0]?.lsn);
          this.replay = { lsn, at: performance.now() };
          if (!this.reachable) logger.info('read replica answers again: reads go to it');
          this.reachable = true;
          return lsn;
        } finally {
          client.release();
        }
      } catch (error) {
        // Not connected, or connected and then lost: either way not usable now.
        if (!connected || isUnreachable(error)) this.unreachable(error);
        else logger.warn({ err: error }, 'could not read the read replica position');
        return null;
      } finally {
        this.probing = undefined;
      }
    })();
    return this.probing;
  }

  private tryAgainInBackground(): void {
    if (!this.probing && performance.now() - this.lastTry >= RETRY_MS) void this.probe();
  }

  private unreachable(error: unknown): void {
    this.lastTry = performance.now();
    if (this.reachable) logger.warn({ err: error }, 'read replica unreachable: reads go to the primary until it answers');
    this.reachable = false;
  }
}

/** The process's read replica (DATABASE_READ_URL), or null when none is configured. */
export function getReadReplica(): ReadReplica | null {
  if (processState.readReplica === undefined) {
    const url = settings().DATABASE_READ_URL?.trim();
    try {
      processState.readReplica = url ? new ReadReplica(url, { prisma: getDb(), pool: getPool() }) : null;
    } catch (error) {
      // A URL pg cannot even parse: said once, loudly; every read then goes to the primary.
      logger.error({ err: error }, 'DATABASE_READ_URL is unusable: reads go to the primary');
      processState.readReplica = null;
    }
  }
  return processState.readReplica;
}

/** Node's and PostgreSQL's ways of saying the server cannot be reached or is going away. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03']);

export function isUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && /Connection terminated|Connection ended unexpectedly|timeout exceeded when trying to connect/i.test(message);
}

/** A standby cancelled the query because replaying WAL needed what it held ("conflict with recovery"). */
function isRecoveryConflict(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '40001' && typeof message === 'string' && /conflict with recovery/i.test(message);
}

type Callback = (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;
type AnyQuery = (...args: unknown[]) => Promise<unknown>;

/**
 * Makes `replica` hand out a connection of `primary` when it cannot connect, and run a query on
 * `primary` when the replica loses the connection mid-query or cancels it for a recovery conflict
 * (reads only: running one again is harmless). Prisma's adapter and sqlRows both come through
 * these two methods. Returns the replica's own connect.
 */
function answeredByPrimaryWhenUnreachable(replica: pg.Pool, primary: pg.Pool, onUnreachable: (error: unknown) => void): () => Promise<pg.PoolClient> {
  const connect = replica.connect.bind(replica) as () => Promise<pg.PoolClient>;
  const query = replica.query.bind(replica) as unknown as AnyQuery;
  const connectOrPrimary = (): Promise<pg.PoolClient> =>
    connect().catch((error: unknown) => {
      // Any failure to connect (refused, timed out, a wrong password) is answered by the
      // primary; only a full pool that did not free a connection in time is busy, not gone.
      if (!/timeout exceeded when trying to connect/i.test(String((error as Error | undefined)?.message))) onUnreachable(error);
      return primary.connect();
    });
  (replica as unknown as { connect: unknown }).connect = (callback?: Callback) => {
    if (!callback) return connectOrPrimary();
    connectOrPrimary().then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
    return undefined;
  };
  (replica as unknown as { query: unknown }).query = (...args: unknown[]) => {
    // Callback and streaming forms (not used on the replica) go their own way.
    const [first] = args;
    if (typeof args.at(-1) === 'function' || (first && typeof (first as { submit?: unknown }).submit === 'function')) return query(...args);
    return query(...args).catch((error: unknown) => {
      if (isUnreachable(error)) onUnreachable(error);
      else if (!isRecoveryConflict(error)) throw error;
      return (primary.query as unknown as AnyQuery)(...args);
    });
  };
  return connect;
}
