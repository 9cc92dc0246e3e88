import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createDb } from '../db/client';
import { applyMigrations } from '../db/migrate';

/**
 * A fresh, migrated database of its own on the test PostgreSQL server, for tests that drive
 * the job runner with their own clock and must not see (or be seen by) anyone else's rows:
 * a copy of the migrated template the test setup made, or migrated here when there is none.
 */
export async function createIsolatedDatabase() {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `iso_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  const template = process.env.TEST_TEMPLATE_DATABASE;
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  if (!template) await applyMigrations(url.toString(), path.resolve(import.meta.dirname, '../../prisma/migrations'));
  const handles = createDb(url.toString());
  return { url: url.toString(), db: handles.prisma, close: handles.close };
}
