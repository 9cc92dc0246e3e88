// PgBouncer in transaction pooling mode in front of a test PostgreSQL, as the service may run
// in production: each transaction may land on another server connection.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePort, type EmbeddedPostgresHandle } from '../db/embedded';

export interface PgBouncerHandle {
  port: number;
  /** The URL of `database` (default: the upstream handle's database) through the pooler. */
  url(database?: string): string;
  /** pgbouncer's log so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

export interface StartPgBouncerOptions {
  /** Server connections per database and user: small, so that clients share them. */
  poolSize?: number;
}

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 15_000;

export async function startPgBouncer(upstream: EmbeddedPostgresHandle, opts: StartPgBouncerOptions = {}): Promise<PgBouncerHandle> {
  const binary = findPgBouncer();
  // pgbouncer refuses to run as root: as root it runs as `postgres`, like the embedded
  // PostgreSQL, and must read its files.
  const user = runAsPostgres();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
  chmodSync(dir, 0o755);
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    writeConfig(dir, port, upstream, opts.poolSize ?? 5);
    const child = spawn(binary, [path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'], ...user });
    // pgbouncer logs to stderr; the last 64 kB are kept for failure messages.
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-65_536)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const log = () => stderr;
    try {
      await waitUntilReady(child, port, upstream);
    } catch (err) {
      await stopProcess(child, exited);
      // An automatically chosen port can be taken between probing and binding: retry.
      if (/Address already in use/.test(log()) && attempt < 3) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${err instanceof Error ? err.message : String(err)}\npgbouncer log:\n${log()}`);
    }
    let stopping: Promise<void> | undefined;
    return {
      port,
      url: (database = upstream.database) =>
        `postgresql://${upstream.user}:${upstream.password}@${HOST}:${port}/${encodeURIComponent(database)}`,
      log,
      stop: () =>
        (stopping ??= stopProcess(child, exited).then(() => rmSync(dir, { recursive: true, force: true }))),
    };
  }
}

function findPgBouncer(): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/bin'];
  const found = dirs.filter(Boolean).map((d) => path.join(d, 'pgbouncer')).find((p) => existsSync(p));
  if (!found) {
    throw new Error("pgbouncer is not installed: run 'bash scripts/install-pgbouncer.sh' (as root) or 'sudo apt-get install -y pgbouncer'");
  }
  return found;
}

function runAsPostgres(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0 || !Number.isInteger(gid)) {
    throw new Error("pgbouncer cannot run as root and there is no 'postgres' OS user to run it as");
  }
  return { uid, gid };
}

function writeConfig(dir: string, port: number, upstream: EmbeddedPostgresHandle, poolSize: number): void {
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  // Clients are trusted (loopback, tests only); pgbouncer logs in to PostgreSQL (SCRAM) with the
  // password from the auth file.
  writeFileSync(path.join(dir, 'userlist.txt'), `${quote(upstream.user)} ${quote(upstream.password)}\n`, { mode: 0o644 });
  const ini = `[databases]
; Any database name, so that tests can create databases and reach them through the pooler.
* = host=${upstream.host} port=${upstream.port}

[pgbouncer]
listen_addr = ${HOST}
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(dir, 'userlist.txt')}
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 1000
log_connections = 0
log_disconnections = 0
`;
  writeFileSync(path.join(dir, 'pgbouncer.ini'), ini, { mode: 0o644 });
}

/** Ready once a query answers through it (pgbouncer listens before it can reach the server). */
async function waitUntilReady(child: ChildProcess, port: number, upstream: EmbeddedPostgresHandle): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`pgbouncer exited during start-up (${child.exitCode ?? child.signalCode})`);
    }
    const client = new pg.Client({ host: HOST, port, user: upstream.user, database: upstream.database, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (err) {
      lastError = err;
    } finally {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      throw new Error(`pgbouncer did not answer within ${START_TIMEOUT_MS} ms: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM is pgbouncer's immediate shutdown; SIGKILL if it hangs. */
async function stopProcess(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise<void>((r) => (timer = setTimeout(r, 5000)))]);
  clearTimeout(timer);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}
