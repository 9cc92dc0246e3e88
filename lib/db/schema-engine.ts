// Prisma's schema engine as WebAssembly (@prisma/schema-engine-wasm): the native engine cannot
// be downloaded on our machines. Needs `node --experimental-wasm-modules`; from any other
// process (e.g. Vitest) use diffDatabaseToSchemaInChildProcess.
//
// Run as a script it reads a connection as JSON on stdin and prints {"sql": "..."}:
//   node --experimental-wasm-modules --import tsx lib/db/schema-engine.ts < conn.json
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQueryable,
  type SqlResultSet,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import pg from 'pg';

export interface PgConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

const SHADOW_DB_PREFIX = 'prisma_migrate_shadow_db_';
const THIS_FILE = fileURLToPath(import.meta.url);
const REPO_ROOT = path.resolve(path.dirname(THIS_FILE), '../..');

/**
 * The SQL that would bring the live database to the datamodel in `schemaPath`. Reads the live
 * schema directly (diff from the datasource), so no shadow database is involved. Returns
 * "-- This is an empty migration." (only comments) when there is no drift: see hasDrift().
 */
export async function diffDatabaseToSchema(conn: PgConnection, schemaPath = 'prisma/schema.prisma'): Promise<string> {
  const wasm = await loadWasmEngine();
  const file = path.resolve(schemaPath);
  const files = [{ path: file, content: readFileSync(file, 'utf8') }];
  const adapters: { dispose(): Promise<void> }[] = [];
  const panic = capturePanics();
  const shadowsBefore = await listShadowDatabases(conn);
  let engine: SchemaEngine | undefined;
  try {
    engine = await wasm.SchemaEngine.new(
      { datamodels: files.map((f): [string, string] => [f.path, f.content]) },
      () => undefined, // engine logs (JSON lines): not needed
      bindMigrationAwareSqlAdapterFactory(trackingFactory(conn, adapters)),
    );
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: process.cwd() },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? '';
  } catch (err) {
    throw panic.message ? new Error(`Prisma schema engine panicked: ${panic.message}`, { cause: err }) : err;
  } finally {
    engine?.free();
    await Promise.all(adapters.map((a) => a.dispose().catch(() => undefined)));
    await dropNewShadowDatabases(conn, shadowsBefore);
  }
}

/** True when a diff script contains any statement (not only comments and blank lines). */
export function hasDrift(sql: string): boolean {
  return sql.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--'));
}

/** diffDatabaseToSchema in a child `node --experimental-wasm-modules` (works from Vitest). */
export async function diffDatabaseToSchemaInChildProcess(
  conn: PgConnection,
  schemaPath = 'prisma/schema.prisma',
): Promise<string> {
  const child = spawn(process.execPath, ['--experimental-wasm-modules', '--import', 'tsx', THIS_FILE], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(JSON.stringify({ conn, schemaPath: path.resolve(schemaPath) }));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const lastLine = stdout.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !lastLine.startsWith('{')) {
    throw new Error(`schema diff child process failed (exit ${code}):\n${stderr}${stdout}`);
  }
  return (JSON.parse(lastLine) as { sql: string }).sql;
}

type WasmEngineModule = typeof import('@prisma/schema-engine-wasm');

async function loadWasmEngine(): Promise<WasmEngineModule> {
  try {
    return await import('@prisma/schema-engine-wasm');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new Error('@prisma/schema-engine-wasm needs `node --experimental-wasm-modules` (or use diffDatabaseToSchemaInChildProcess)', { cause: err });
    }
    throw err;
  }
}

/** The wasm engine reports Rust panics through this global; without it the panic text is lost. */
function capturePanics(): { message?: string } {
  const sink: { message?: string } = {};
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
    set_message: (message: string) => (sink.message = message),
  };
  return sink;
}

/**
 * adapter-pg 7.10 rejects PostgreSQL's one-byte `"char"` type (OID 18), which the engine's
 * schema describer selects (e.g. pg_constraint.contype), and the describer needs those columns
 * typed as Character. Our pg client retypes them as text and remembers which columns they were
 * (keyed by the rows array, which the adapter passes through); queryRaw then marks them.
 */
const CHAR_OID = 18;
const TEXT_OID = 25;
const charColumnsByRows = new WeakMap<object, number[]>();

interface PgResultLike {
  fields?: { dataTypeID: number }[];
  rows?: unknown[];
}

function retypeCharColumns(result: unknown): unknown {
  for (const r of (Array.isArray(result) ? result : [result]) as (PgResultLike | undefined)[]) {
    const columns: number[] = [];
    r?.fields?.forEach((field, i) => {
      if (field.dataTypeID === CHAR_OID) {
        field.dataTypeID = TEXT_OID;
        columns.push(i);
      }
    });
    if (columns.length > 0 && r?.rows) charColumnsByRows.set(r.rows, columns);
  }
  return result;
}

class CharAwareClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    type AnyQuery = (...args: unknown[]) => unknown;
    const query = (this.query as AnyQuery).bind(this);
    // pg-pool calls query(config, values, callback); Prisma's adapter awaits a promise.
    (this as unknown as { query: AnyQuery }).query = (...args) => {
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        args[args.length - 1] = (err: unknown, res: unknown) => callback(err, err ? res : retypeCharColumns(res));
      }
      const ret = query(...args);
      return ret instanceof Promise ? ret.then(retypeCharColumns) : ret;
    };
  }
}

function withCharColumns<T extends SqlQueryable>(queryable: T): T {
  return new Proxy(queryable, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'queryRaw') {
        return async (...args: Parameters<SqlQueryable['queryRaw']>): Promise<SqlResultSet> => {
          const result = await target.queryRaw(...args);
          for (const i of charColumnsByRows.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
          return result;
        };
      }
      if (key === 'startTransaction') {
        return async (...args: unknown[]) => withCharColumns(await (value as (...a: unknown[]) => Promise<SqlQueryable>).apply(target, args));
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

/**
 * Host/port/user/database as separate fields: built from a connection string, adapter-pg's
 * shadow database would silently be the main database. Adapters are tracked to dispose them.
 */
function trackingFactory(conn: PgConnection, adapters: { dispose(): Promise<void> }[]): SqlMigrationAwareDriverAdapterFactory {
  // allowExitOnIdle: idle pool clients must not keep the process alive (~10 s linger otherwise).
  const factory = new PrismaPg({ ...conn, Client: CharAwareClient, allowExitOnIdle: true });
  const track = <T extends { dispose(): Promise<void> } & SqlQueryable>(adapter: T): T => {
    adapters.push(adapter);
    return withCharColumns(adapter);
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  };
}

async function withAdminClient<T>(conn: PgConnection, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...conn, database: 'postgres' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function listShadowDatabases(conn: PgConnection): Promise<Set<string>> {
  return withAdminClient(conn, async (client) => {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [SHADOW_DB_PREFIX]);
    return new Set(rows.map((r) => r.datname));
  });
}

/** adapter-pg can leave its shadow database behind; drop only the ones created during our call. */
async function dropNewShadowDatabases(conn: PgConnection, before: Set<string>): Promise<void> {
  const after = await listShadowDatabases(conn);
  const created = [...after].filter((name) => !before.has(name));
  if (created.length === 0) return;
  await withAdminClient(conn, async (client) => {
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  });
}

async function runAsScript(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const { conn, schemaPath } = JSON.parse(input) as { conn: PgConnection; schemaPath?: string };
  const sql = await diffDatabaseToSchema(conn, schemaPath);
  process.stdout.write(`${JSON.stringify({ sql })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // Exit explicitly: the wasm engine can keep the event loop alive after free().
  runAsScript().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
