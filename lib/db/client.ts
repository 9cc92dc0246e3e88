import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client';
import { logger } from '../observability/logger';
import { preparedStatementsEnabled, registerPool } from './sql';
import { processState } from '../process/state';
import { settings } from '../settings/settings';

export type Db = PrismaClient;
/** A Prisma client or an interactive transaction: what domain verbs take. */
export type DbOrTx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

type Handles = { prisma: PrismaClient; pool: pg.Pool };

declare module '../process/state' {
  interface ProcessState {
    /** The database client and its pool. */
    db?: Handles;
  }
}

// One pool per process, shared by Prisma and the few raw-SQL users (rate limiter), and kept
// across module copies and dev-mode reloads (lib/process/state.ts).

function databaseUrl(): string {
  const url = settings().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (npm start sets it for the embedded database).');
  return url;
}

/**
 * A pg client that sends every query unnamed. A library may name its statements itself, so
 * with DATABASE_PREPARED_STATEMENTS=false the pool drops the names; a transaction-mode pooler
 * would otherwise answer "prepared statement … does not exist / already exists".
 */
class UnnamedStatementsClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    type AnyQuery = (...args: unknown[]) => unknown;
    const query = (this.query as AnyQuery).bind(this);
    (this as unknown as { query: AnyQuery }).query = (first, ...rest) => {
      // Submittables (cursors, streams) carry their own protocol flow: left as they are.
      if (first && typeof first === 'object' && 'name' in first && typeof (first as { submit?: unknown }).submit !== 'function') {
        const { name: _unused, ...unnamed } = first as pg.QueryConfig;
        return query(unnamed, ...rest);
      }
      return query(first, ...rest);
    };
  }
}

/**
 * A pool as the process's: named or unnamed statements as DATABASE_PREPARED_STATEMENTS says, and
 * never lending a connection that was given back inside a transaction (`closesOpenTransactions`).
 */
export function newPool(connectionString: string, max: number, options: Omit<pg.PoolConfig, 'connectionString' | 'max' | 'Client'> = {}): pg.Pool {
  const Client = preparedStatementsEnabled() ? pg.Client : UnnamedStatementsClient;
  const pool = new pg.Pool({ ...options, connectionString, max, Client: Client as new () => pg.ClientBase });
  closesOpenTransactions(pool);
  return pool;
}

/**
 * A connection given back to the pool inside a transaction (a BEGIN whose COMMIT or ROLLBACK was
 * never sent: an interactive transaction abandoned by a timeout, a bug of ours) is closed, not
 * lent again: whoever took it next would write into that transaction, unseen by every other
 * connection until something ended it, or fail on an aborted one. Closing it rolls the
 * transaction back. The pool emits 'release' before it decides, and a client that is ending is
 * removed, not kept.
 */
export function closesOpenTransactions(pool: pg.Pool): void {
  pool.on('release', (error: Error | undefined, client: pg.PoolClient) => {
    const status = (client as pg.PoolClient & { getTransactionStatus?: () => string | null }).getTransactionStatus?.();
    if (error || (status !== 'T' && status !== 'E')) return;
    logger.warn({ transactionStatus: status }, 'a database connection came back inside a transaction: closed, not reused');
    void client.end().catch(() => undefined);
  });
}

/** DATABASE_POOL_SIZE (default 10): connections a process opens to each database it uses, at most. */
export function poolSize(): number {
  return settings().DATABASE_POOL_SIZE;
}

function handles(): Handles {
  if (!processState.db) {
    const pool = newPool(databaseUrl(), poolSize());
    survivesIdleErrors(pool);
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    registerPool(prisma, pool);
    processState.db = { prisma, pool };
  }
  return processState.db;
}

/**
 * An idle connection that PostgreSQL closes (a restart, an administrator) makes the pool emit
 * 'error'; unheard, that would end the process. The pool drops that connection and opens
 * another on demand, so noting it is enough.
 */
export function survivesIdleErrors(pool: pg.Pool): void {
  pool.on('error', (error) => logger.warn({ err: error }, 'idle database connection closed'));
}

/** The process's Prisma client. Only composition roots (route wrapper, jobs, scripts) call it. */
export function getDb(): PrismaClient {
  return handles().prisma;
}

/** The process's pg pool, for libraries that speak to PostgreSQL directly. */
export function getPool(): pg.Pool {
  return handles().pool;
}

/** Builds a client for a given URL (scripts and tests); the caller disconnects it. */
export function createDb(url: string): { prisma: PrismaClient; pool: pg.Pool; close(): Promise<void> } {
  const pool = newPool(url, 5);
  survivesIdleErrors(pool);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  registerPool(prisma, pool);
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
