// Group `builds` (`--only builds --against DIR`): this tree's service beside another checkout's,
// loaded at the same time, so that a change of a few percent shows through the machine's drift.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RunningServer } from '../../scripts/support/next-server';
import { log, root, type Context } from '../context';
import type { LoadSpec } from '../load';
import { runLoadProcess } from '../processes';
import { median, ratio } from '../stats';
import { measureSideBySide, provisionExperimentLoads, ROUTE_LABEL, startSideService, type ExperimentRoute, type SideMeasure } from './experiments';
import { settleDatabase } from './http';

export type BuildsComparison = {
  route: ExperimentRoute;
  connections: number;
  /** Each round: this tree's side over the other's, in the same seconds (CPU: service + its backends, per request). */
  rounds: { ours: SideMeasure; theirs: SideMeasure; cpu: number | null; throughput: number | null }[];
  cpu: number | null;
  throughput: number | null;
};

/**
 * Two service processes (one worker each, their own pools, told apart in PostgreSQL by
 * application_name) on this run's database: side `a` from `against` (a checkout built with
 * `node --import tsx scripts/ensure-build.ts`, whose migrations this database must satisfy),
 * side `b` from this tree. Each serves a tenant of its own with the same book; each round loads
 * both with half the connections, and the sides swap tenants every round. The figures are each
 * round's ratio, this tree over the other, and their median.
 */
export async function runBuildsSideBySide(ctx: Context, options: { against: string; connections: number[]; rounds: number }): Promise<BuildsComparison[]> {
  const against = path.resolve(options.against);
  if (!existsSync(path.join(against, '.next/api-router.mjs'))) {
    throw new Error(`${against} has no build: run \`node --import tsx scripts/ensure-build.ts\` there first`);
  }
  const tenants = [await provisionExperimentLoads(ctx), await provisionExperimentLoads(ctx)];
  const roots = { a: against, b: root };
  const servers = {} as Record<'a' | 'b', RunningServer>;
  const appName = (side: 'a' | 'b') => `bench-build-${side}`;
  try {
    for (const side of ['a', 'b'] as const) {
      servers[side] = await startSideService(ctx, { root: roots[side], name: appName(side), label: `builds: service ${side} from ${roots[side]}` });
    }
    const spec = (side: 'a' | 'b', tenant: number, route: ExperimentRoute, connections: number): LoadSpec => ({
      ...tenants[tenant].specs[route],
      url: servers[side].url,
      connections,
      warmupSec: ctx.settings.warmupSec,
      durationSec: ctx.settings.durationSec,
    });
    for (const route of ['quotes', 'public_quotes'] as const) {
      log(`builds: warming up ${ROUTE_LABEL[route]}`);
      await Promise.all((['a', 'b'] as const).map((side, i) => runLoadProcess(ctx, `warm-up ${side}`, { ...spec(side, i, route, 16), warmupSec: 0 })));
    }
    const comparisons: BuildsComparison[] = [];
    for (const connections of options.connections) {
      for (const route of ['quotes', 'public_quotes'] as const) {
        const rounds: BuildsComparison['rounds'] = [];
        for (let round = 1; round <= options.rounds; round++) {
          const swap = round % 2 === 0 ? 1 : 0;
          log(`builds: ${ROUTE_LABEL[route]} @ ${connections} (${connections / 2} each), round ${round} of ${options.rounds}`);
          await settleDatabase(ctx);
          const measured = await measureSideBySide(
            ctx,
            { a: spec('a', swap, route, connections / 2), b: spec('b', 1 - swap, route, connections / 2) },
            servers,
            appName,
          );
          const [theirs, ours] = (['a', 'b'] as const).map((side): SideMeasure => ({ ...measured.sides[side], side, experiment: false }));
          rounds.push({ ours, theirs, cpu: ratio(ours.cpuMsPerRequest, theirs.cpuMsPerRequest), throughput: ratio(ours.requestsPerSecond, theirs.requestsPerSecond) });
        }
        const medianOf = (pick: 'cpu' | 'throughput') => median(rounds.map((r) => r[pick]));
        comparisons.push({ route, connections, rounds, cpu: medianOf('cpu'), throughput: medianOf('throughput') });
      }
    }
    return comparisons;
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
}
