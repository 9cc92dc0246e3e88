import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../../lib/testing/factories';
import { createIsolatedDatabase } from '../../lib/testing/isolated-database';
import { maintainRequestLogPartitions, PARTITION_DAYS_AHEAD } from '../../lib/requestlog/partitions';
import { countDefaultPartitionRows, findRequestLog, insertRequestLogs, listDayPartitions, PARTITIONED, partitionName, type RequestLogEntry } from '../../lib/requestlog/store';
import { newRequestId } from '../../lib/requestlog/request-id';

/**
 * Issue 31: the request log is partitioned by UTC day. The minute job makes days ahead, drops
 * those past the retention whole (their rows with them, the hourly rollup kept), and raises an
 * alarm when a row had no day to go to.
 */
const DAY = 86_400_000;
const today = new Date(Math.floor(Date.now() / DAY) * DAY);
const at = (days: number) => new Date(today.getTime() + days * DAY);
/** The workspace's rows whatever their age (retention is test/api/request-log-retention's). */
const everything = (workspaceId: string) => new Map([[workspaceId, new Date(0)]]);

function entry(createdAt: Date, workspaceId: string): RequestLogEntry {
  return {
    requestId: randomUUID(), method: 'GET', path: '/v1/status', status: 200, errorCode: null, principal: 'anonymous', caller: 'anonymous', portal: false,
    ip: null, userAgent: null, requestBody: null, responseBody: null, apiKeyId: null, userId: null, workspaceId, projectId: null, environmentId: null,
    businessId: null, latencyMs: 1, testFault: null, createdAt,
  };
}

describe('request log partitions', () => {
  let iso: Awaited<ReturnType<typeof createIsolatedDatabase>>;
  const errors: unknown[][] = [];
  const ctx = (now: Date) => ({ ...testContext(iso.db, { now }), log: { ...testContext(iso.db).log, error: (...args: unknown[]) => void errors.push(args) } as never });
  beforeAll(async () => {
    iso = await createIsolatedDatabase();
  });
  afterAll(async () => {
    await iso.close();
  });

  it('finds a row by a new request id in its own day only, and by an old (v4) id anywhere', async () => {
    const workspaceId = randomUUID();
    const fresh = { ...entry(new Date(), workspaceId), requestId: newRequestId() };
    const old = { ...entry(new Date(at(2).getTime() + 5_000), workspaceId), requestId: randomUUID() };
    await insertRequestLogs(iso.db, [fresh, old]);
    expect((await findRequestLog(iso.db, everything(workspaceId), fresh.requestId))?.requestId).toBe(fresh.requestId);
    expect((await findRequestLog(iso.db, everything(workspaceId), old.requestId))?.requestId).toBe(old.requestId);
    expect(await findRequestLog(iso.db, everything(randomUUID()), fresh.requestId)).toBeNull();
    // The lookup of a new id reads one day's partition; an old id's reads every day.
    const scanned = async (requestId: string, window: string) => {
      const plan = await iso.db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN SELECT id FROM request_logs WHERE request_id = '${requestId}' ${window}`);
      return new Set(plan.flatMap((line) => line['QUERY PLAN'].match(/\b(d\d{8}|request_logs_default)\b/g) ?? [])).size;
    };
    const t = fresh.createdAt.getTime();
    expect(await scanned(fresh.requestId, `AND created_at >= '${new Date(t - 60_000).toISOString()}' AND created_at < '${new Date(t + 60_000).toISOString()}'`)).toBeLessThanOrEqual(2);
    expect(await scanned(old.requestId, '')).toBeGreaterThan(PARTITION_DAYS_AHEAD);
  });

  it('the migration made today and a week ahead; the job makes days ahead of its own clock', async () => {
    const made = await listDayPartitions(iso.db);
    for (let i = 0; i <= PARTITION_DAYS_AHEAD; i++) expect(made).toContain(partitionName(at(i)));
    expect(await maintainRequestLogPartitions(ctx(at(30)), 90)).toBe(2 * (PARTITION_DAYS_AHEAD + 1)); // the rows' days and the bodies'
    expect(await listDayPartitions(iso.db)).toContain(partitionName(at(30 + PARTITION_DAYS_AHEAD)));
    // Nothing left to do a minute later.
    expect(await maintainRequestLogPartitions(ctx(new Date(at(30).getTime() + 60_000)), 90)).toBe(0);
  });

  it('drops the days past the retention whole, with their rows; later days and the hourly counts stay', async () => {
    const workspaceId = randomUUID();
    await insertRequestLogs(iso.db, [entry(new Date(at(0).getTime() + 3_600_000), workspaceId), entry(new Date(at(31).getTime() + 60_000), workspaceId)]);
    expect(await iso.db.requestLog.count({ where: { workspaceId } })).toBe(2);
    // 40 days on, with 31 days kept: today's partition (and the days up to day 8) go.
    await maintainRequestLogPartitions(ctx(at(40)), 31);
    const left = await listDayPartitions(iso.db);
    expect(left.filter((name) => name < partitionName(at(9)))).toEqual([]);
    expect(left).toContain(partitionName(at(31)));
    const rows = await iso.db.requestLog.findMany({ where: { workspaceId }, select: { createdAt: true } });
    expect(rows.map((r) => r.createdAt.getTime())).toEqual([at(31).getTime() + 60_000]);
    expect(Number((await iso.db.requestLogHourly.aggregate({ where: { workspaceId }, _sum: { requests: true } }))._sum.requests)).toBe(2);
  });

  it('drops bodies a day at a time after 30 days, while their rows stay', async () => {
    const workspaceId = randomUUID();
    const withBodies = { ...entry(new Date(at(33).getTime() + 3_600_000), workspaceId), requestBody: '{"a":1}', responseBody: '{"error":{}}' };
    await insertRequestLogs(iso.db, [withBodies]);
    expect(await findRequestLog(iso.db, everything(workspaceId), withBodies.requestId)).toMatchObject({ requestBody: '{"a":1}', responseBody: '{"error":{}}' });
    // Day 64: the bodies of day 33 are past their 30 days; the rows keep their 90.
    await maintainRequestLogPartitions(ctx(at(64)), 90);
    expect(await listDayPartitions(iso.db, PARTITIONED.bodies)).not.toContain(partitionName(at(33), PARTITIONED.bodies));
    expect(await listDayPartitions(iso.db)).toContain(partitionName(at(33)));
    expect(await findRequestLog(iso.db, everything(workspaceId), withBodies.requestId)).toMatchObject({ status: 200, requestBody: null, responseBody: null });
  });

  it('a row with no day partition lands in the default one, and the job says so', async () => {
    expect(await countDefaultPartitionRows(iso.db)).toBe(0);
    await insertRequestLogs(iso.db, [entry(at(400), randomUUID())]);
    expect(await countDefaultPartitionRows(iso.db)).toBe(1);
    errors.length = 0;
    await maintainRequestLogPartitions(ctx(at(40)), 31);
    expect(JSON.stringify(errors)).toContain('default partition');
  });

  // Last: its clock runs the days of the tests above out.
  it('keeps the days as long as the workspace that keeps its log longest, then drops them', async () => {
    const workspace = await iso.db.workspace.create({ data: { slug: `long-${randomUUID()}`, name: 'Keeps 120 days', requestLogRetentionDays: 120 } });
    const row = entry(new Date(at(45).getTime() + 60_000), workspace.id);
    await insertRequestLogs(iso.db, [row]);
    // Day 150: past the service's 90 days, within the workspace's 120.
    await maintainRequestLogPartitions(ctx(at(150)), 90);
    expect(await listDayPartitions(iso.db)).toContain(partitionName(at(45)));
    expect(await iso.db.requestLog.count({ where: { workspaceId: workspace.id } })).toBe(1);
    // The workspace goes back to the default: the day goes with the next run.
    await iso.db.workspace.update({ where: { id: workspace.id }, data: { requestLogRetentionDays: null } });
    await maintainRequestLogPartitions(ctx(new Date(at(150).getTime() + 60_000)), 90);
    expect(await listDayPartitions(iso.db)).not.toContain(partitionName(at(45)));
    expect(await iso.db.requestLog.count({ where: { workspaceId: workspace.id } })).toBe(0);
  });
});
