// `npm run bench:probe`: a quick look at some figures of the suite, printed rather than written
// to BENCHMARKS.md, for trying a change back to back with the version before it.
// `BENCH_ONLY=B5,B7,B8` (the default) names the figures; each starts the fleet it is measured on.
import { join } from 'node:path';
import { prepareDeveloper } from './accounts.js';
import { prepareBundle } from './bundles.js';
import { coldStarts } from './cold-start.js';
import { startProcessFleet, startStandalone, type RunningFleet } from './fleets.js';
import { load, type LoadOptions, type LoadResult } from './load.js';
import { freePort } from '@svc/testing';
import { launch, processIds, treeMemory, waitForHealthy } from './processes.js';
import { fmt } from './report.js';
import { median, sleep } from './stats.js';

const ONLY = new Set((process.env.BENCH_ONLY ?? 'B5,B7,B8').split(',').map((id) => id.trim()));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Seconds the fleet rests before its memory is read (the suite waits 45). */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 45);

const MB = (mib: number) => (mib * 2 ** 20) / 1e6;
const cpu = (r: LoadResult) => Object.entries(r.serverCpuMs).map(([name, ms]) => `${name} ${ms.toFixed(3)} ms`).join(', ');

async function b8(fleet: RunningFleet): Promise<void> {
  const developer = await prepareDeveloper(fleet.url);
  const pids = processIds(fleet.process.pid);
  const { entryPoint, staticDir } = await prepareBundle(fleet.url, developer);
  const port = await freePort();
  const server = launch(['bench/src/static-server.mjs'], { PATH: process.env.PATH, PORT: String(port), STATIC_DIR: staticDir }, join(staticDir, 'static-server.log'));
  try {
    const watch = { gateway: pids['gateway/dist/main.js']!, dashboard: pids['services/dashboard/dist/main.js']! };
    const viaGateway: LoadOptions = { url: `${fleet.url}${entryPoint}`, headers: { authorization: `Bearer ${developer.token}` }, durationSeconds: SECONDS, watch };
    const statics: LoadOptions = { url: `http://127.0.0.1:${port}/main.js`, durationSeconds: SECONDS, watch: { static: server.pid } };
    await waitForHealthy(server, statics.url, 10_000);
    await load({ ...viaGateway, durationSeconds: 2 });
    await load({ ...statics, durationSeconds: 2 });
    const ratios: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const gateway = await load(viaGateway);
      const direct = await load(statics);
      ratios.push((100 * gateway.rps) / direct.rps);
      console.log(`B8 run ${run + 1}: gateway ${fmt(gateway.rps)} req/s (${cpu(gateway)}, ${gateway.failures} failures); express.static ${fmt(direct.rps)} req/s (${cpu(direct)}): ${fmt(ratios.at(-1)!)} %`);
    }
    console.log(`B8 median ${fmt(median(ratios))} % of express.static`);
  } finally {
    await server.stop();
  }
}

async function b7(fleet: RunningFleet): Promise<void> {
  console.log(`B7: resting ${IDLE_SECONDS} s`);
  await sleep(IDLE_SECONDS * 1000);
  const processes = treeMemory(fleet.process.pid);
  for (const p of processes) console.log(`  ${p.command.padEnd(40)} ${fmt(MB(p.rssMiB)).padStart(6)} MB resident ${fmt(MB(p.pssMiB)).padStart(6)} MB proportional`);
  const sum = (f: (p: (typeof processes)[number]) => number) => fmt(MB(processes.reduce((total, p) => total + f(p), 0)));
  console.log(`B7 fleet: ${sum((p) => p.rssMiB)} MB resident, ${sum((p) => p.pssMiB)} MB proportional`);
}

async function b7Standalone(): Promise<void> {
  const fleet = await startStandalone(false);
  try {
    await prepareDeveloper(fleet.url);
    await fleet.stop({ keepData: true });
    const again = await startStandalone(false, { reuseDataDir: fleet.dataDir });
    try {
      console.log(`B7 standalone (restarted): resting ${IDLE_SECONDS} s`);
      await sleep(IDLE_SECONDS * 1000);
      for (const p of treeMemory(again.process.pid)) console.log(`  ${p.command.padEnd(40)} ${fmt(MB(p.rssMiB)).padStart(6)} MB resident`);
    } finally {
      await again.stop();
    }
  } finally {
    await fleet.stop();
  }
}

async function b5(): Promise<void> {
  const fleet = await startStandalone(true);
  try {
    const developer = await prepareDeveloper(fleet.url);
    for (let run = 0; run < RUNS; run++) {
      const times = await coldStarts(fleet.url, developer, `p${run}`, 5);
      console.log(`B5 run ${run + 1}: ${times.map(fmt).join(', ')} ms`);
    }
  } finally {
    await fleet.stop();
  }
}

if (ONLY.has('B8') || ONLY.has('B7')) {
  const fleet = await startProcessFleet();
  try {
    if (ONLY.has('B8')) await b8(fleet);
    if (ONLY.has('B7')) await b7(fleet);
  } finally {
    await fleet.stop();
  }
}
if (ONLY.has('B7s')) await b7Standalone();
if (ONLY.has('B5')) await b5();
