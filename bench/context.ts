// What the benchmark cases share (bench/run.ts builds it; bench/cases/* use it): the running
// database, service and reference, the settings of this run, and the log.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import type { createDb } from '../lib/db/client';
import type { EmbeddedPostgresHandle } from '../lib/db/embedded';
import type { RunningServer } from '../scripts/support/next-server';
import type { TreeUsage } from './procfs';
import type { Provisioned } from './provision';

export const root = path.resolve(import.meta.dirname, '..');

/** Per run, set by bench/run.ts (`--quick` or full). */
export type Settings = {
  warmupSec: number;
  durationSec: number;
  connections: number[];
  /** Rounds at 8 and 32 connections, pooled (1 at 1 connection). */
  pooledRounds: number;
  searchRequests: number;
  idleEvents: number;
  burstEvents: number;
  logRows: number;
  sqlRequests: number;
};

export const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Usage = Record<string, TreeUsage>;

export type Context = {
  tmp: string;
  db: ReturnType<typeof createDb>;
  admin: pg.Pool;
  database: EmbeddedPostgresHandle;
  pgLog: string[];
  postmasterPid: () => number;
  next: RunningServer;
  reference: { url: string; process: ChildProcess };
  setup: Provisioned;
  nextEnv: Record<string, string>;
  nextPort: number;
  settings: Settings;
};
