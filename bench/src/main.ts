// `npm run bench`: builds, then measures B0-B8 of the benchmark brief on this machine and
// writes BENCHMARKS.md at the repository root. Each fleet runs in processes of its own; this
// process is only the load generator.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInternalIdentity, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { expectCall } from './api.js';
import { prepareDeveloper, publishAndInstall, type Developer } from './accounts.js';
import { prepareBundle } from './bundles.js';
import { coldStarts } from './cold-start.js';
import { startProcessFleet, startStandalone, type RunningFleet } from './fleets.js';
import { singleCaller, type LatencyResult } from './latency.js';
import { load, watchingCpu, type LoadOptions, type LoadResult, type Watch } from './load.js';
import { cpuTimes, machineFacts, stolenShare } from './machine.js';
import { connectMcp, loadMcp } from './mcp.js';
import { freePort } from '@svc/testing';
import { selection } from './only.js';
import { launch, mainThreadOf, processesNamed, processIds, ROOT, treeMemory, waitForHealthy, type ProcessMemory } from './processes.js';
import { fmt, percentOrUnknown, resultsTable, writeReport, type Row } from './report.js';
import { median, percentile, sleep } from './stats.js';
import { runTasks, type TaskRunResult } from './tasks.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);
const COLD_PACKS = 5;
const WARM_SECONDS = 2;
const CONNECTIONS = 32;
/** B2 with several tenants: each its own developer, pack and API key, with CONNECTIONS / TENANTS connections. */
const TENANTS = 4;
const { partial, wanted } = selection(process.env.BENCH_ONLY);

const startedAt = Date.now();
const loadBefore = loadavg();
const cpuBefore = cpuTimes();
const rows: Row[] = [];
const details: string[] = [];

/** The machine's 1-minute load average as each figure started: other work on it shows here. */
const loadAtStart: string[] = [];
/** The share of CPU time the hypervisor gave other guests while each figure ran: a slow host shows here. */
const stolenDuring: string[] = [];

async function repeat<T>(label: string, fn: (run: number) => Promise<T>, show: (result: T) => string): Promise<T[]> {
  loadAtStart.push(`${label} ${loadavg()[0]!.toFixed(1)}`);
  const cpu = cpuTimes();
  const results: T[] = [];
  for (let run = 0; run < RUNS; run++) {
    results.push(await fn(run));
    console.log(`${label} run ${run + 1}/${RUNS}: ${show(results[run]!)}`);
  }
  stolenDuring.push(`${label} ${percentOrUnknown(stolenShare(cpu))}`);
  return results;
}

const showLoad = (r: LoadResult) => `${fmt(r.rps)} req/s, p50 ${fmt(r.p50Ms)} ms, p99 ${fmt(r.p99Ms)} ms${r.failures ? `, ${r.failures} failures` : ''}`;

/** A warm-up run, then the measured ones. */
async function measure(label: string, options: LoadOptions): Promise<LoadResult[]> {
  await load({ ...options, durationSeconds: WARM_SECONDS });
  return repeat(label, () => load(options), showLoad);
}

/** The B1 request: the echo command run synchronously with an API key; `watch`: see LoadOptions. */
function echoCall(url: string, apiKey: string, watch?: Watch, connections = CONNECTIONS): LoadOptions {
  return {
    watch,
    url,
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'bench' }),
    connections,
    durationSeconds: SECONDS,
  };
}

function noteFailures(id: string, results: LoadResult[]): void {
  const failures = results.reduce((sum, r) => sum + r.failures, 0);
  if (failures > 0) details.push(`${id}: ${failures} answers were not 2xx (or failed) across the runs.`);
}

const MB = (mib: number) => (mib * 2 ** 20) / 1e6;

/**
 * Seconds a fleet is left alone before its memory is read. V8's memory reducer gives back what a
 * busy heap took only once allocation has stopped for some 8 s, and then in steps: a fleet read
 * 5 s after a load holds some 50 % more than the same fleet at rest.
 */
const IDLE_SECONDS = 45;
const EARLY_SECONDS = 5;
/**
 * A last look at the fleet, for the details: its memory reducer may wait up to 100 s after the
 * last full GC (V8's watchdog), and in some runs a process still held its busy heap at 45 s.
 */
const LATE_SECONDS = 90;

/**
 * Resident memory (MB) of the launched process alone and with all its descendants, once it has
 * been left alone for IDLE_SECONDS, sampled once a second; the reading after EARLY_SECONDS goes
 * into the details.
 */
async function idleMemory(id: string, fleet: RunningFleet, late = false): Promise<{ process: number[]; tree: number[]; treePss: number[] }> {
  const sumOf = (processes: ProcessMemory[]) => MB(processes.reduce((sum, p) => sum + p.rssMiB, 0));
  const pssOf = (processes: ProcessMemory[]) => MB(processes.reduce((sum, p) => sum + p.pssMiB, 0));
  await sleep(EARLY_SECONDS * 1000);
  const early = treeMemory(fleet.process.pid);
  await sleep((IDLE_SECONDS - EARLY_SECONDS) * 1000);
  const samples = { process: [] as number[], tree: [] as number[], treePss: [] as number[] };
  let last = treeMemory(fleet.process.pid);
  for (let i = 0; i < RUNS; i++) {
    if (i > 0) await sleep(1000);
    last = treeMemory(fleet.process.pid);
    samples.process.push(MB(last[0]?.rssMiB ?? Number.NaN));
    samples.tree.push(sumOf(last));
    samples.treePss.push(pssOf(last));
  }
  details.push(
    `${id}, by process (last sample, MB, resident / proportional): ${last.map((p) => `${p.command} ${fmt(MB(p.rssMiB))} / ${fmt(MB(p.pssMiB))}`).join('; ')}. ` +
      `${EARLY_SECONDS} s after the last request, before V8 gave memory back: ${fmt(MB(early[0]?.rssMiB ?? Number.NaN))} MB the launched process, ${fmt(sumOf(early))} MB with its descendants.`,
  );
  if (late) {
    await sleep((LATE_SECONDS - IDLE_SECONDS - RUNS + 1) * 1000);
    const later = treeMemory(fleet.process.pid);
    details.push(`${id}, ${LATE_SECONDS} s after the last request: ${fmt(sumOf(later))} MB resident, ${fmt(pssOf(later))} MB proportional (${later.map((p) => `${p.command} ${fmt(MB(p.rssMiB))}`).join('; ')}).`);
  }
  return samples;
}

/** L1's measure: `SECONDS` of one caller, `RUNS` times after a warm-up; its p50 per run. */
async function oneCaller(label: string, url: string, apiKey: string): Promise<LatencyResult[]> {
  const { headers, body } = echoCall(url, apiKey);
  await singleCaller(url, { headers: headers!, body: body! }, WARM_SECONDS);
  return repeat(label, () => singleCaller(url, { headers: headers!, body: body! }, SECONDS), (r) => `p50 ${r.p50Ms.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.answered} calls`);
}

/**
 * B0, and beside it the same request through a bare express app (`src/express-server.mjs`): the
 * floor of the stack every service stands on. The two alternate, so that a drift of the machine
 * touches both alike. For L1, one caller's latency on the bare server too.
 */
async function baseline(): Promise<{ bare: LoadResult[]; express: LoadResult[]; bareOne?: LatencyResult[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-bare-'));
  const servers = await Promise.all(
    ['bare-server.mjs', 'express-server.mjs'].map(async (script) => {
      const port = await freePort();
      const server = launch([`bench/src/${script}`], { PATH: process.env.PATH, PORT: String(port) }, join(dir, `${script}.log`));
      return { server, options: echoCall(`http://127.0.0.1:${port}/`, 'unused') };
    }),
  );
  const [bare, express] = servers as [(typeof servers)[number], (typeof servers)[number]];
  try {
    // The express app answers only POST: any answer to a GET means it listens.
    for (const { server, options } of servers) await waitForHealthy(server, options.url, 10_000, () => true);
    for (const { options } of servers) await load({ ...options, durationSeconds: WARM_SECONDS });
    const pairs = await repeat('B0', async () => ({ bare: await load(bare.options), express: await load(express.options) }), (p) => `bare ${showLoad(p.bare)}; express ${showLoad(p.express)}`);
    const bareOne = wanted('L1') ? await oneCaller('L1 (bare Node)', bare.options.url, 'unused') : undefined;
    return { bare: pairs.map((p) => p.bare), express: pairs.map((p) => p.express), bareOne };
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `fn` only when one of its figures is wanted (`BENCH_ONLY`). */
const when = <T>(ok: boolean, fn: () => Promise<T>): Promise<T | undefined> => (ok ? fn() : Promise.resolve(undefined));

async function onRealStandalone() {
  const fleet = await startStandalone(true);
  try {
    const developer = await prepareDeveloper(fleet.url);
    const watch = { standalone: fleet.process.pid, ...localInfrastructure() };
    const echo = `${fleet.url}/api/v1/commands/${developer.slug}/echo`;
    const b1 = await when(wanted('B1', 'B3'), () => measure('B1', echoCall(echo, developer.apiKey, watch)));
    const mcpRuns = (label: string, connections?: number) =>
      repeat(
        label,
        async (run) => {
          const mcp = await connectMcp(fleet.url, developer.apiKey, connections);
          if (run === 0) await loadMcp(mcp, WARM_SECONDS, CONNECTIONS);
          const result = await loadMcp(mcp, SECONDS, CONNECTIONS, watch);
          await mcp.client.close();
          return result;
        },
        showLoad,
      );
    const b3 = await when(wanted('B3'), () => mcpRuns('B3', CONNECTIONS));
    const b3NodeFetch = await when(wanted('B3'), () => mcpRuns('B3 (Node fetch)'));
    const b5 = await when(wanted('B5'), () => repeat('B5', (run) => coldStarts(fleet.url, developer, String(run), COLD_PACKS), (t) => t.map(fmt).join(', ') + ' ms'));
    const b5Python = await when(wanted('B5'), () => repeat('B5 (Python)', (run) => coldStarts(fleet.url, developer, String(run), COLD_PACKS, 'python'), (t) => t.map(fmt).join(', ') + ' ms'));
    const b1Python = await when(wanted('B5'), async () => {
      await publishAndInstall(fleet.url, developer, 'pytools', 'pyecho', 'python');
      return measure('B1 (Python)', echoCall(`${fleet.url}/api/v1/commands/${developer.slug}/pyecho`, developer.apiKey, watch));
    });
    const b4 = await when(wanted('B4'), () => repeat('B4', () => runTasks(fleet.url, developer.apiKey, `/api/v1/commands/${developer.slug}/echo`, TASKS, CONNECTIONS), showTasks));
    return { b1, b3, b3NodeFetch, b4, b5, b5Python, b1Python };
  } finally {
    details.push(...(await fleet.stop()).map((l) => `Left behind: ${l}`));
  }
}

/**
 * B1 and B4 again on the real standalone with one of the bus's batchings off: frames
 * (`SVC_BUS_FRAME_BATCHING=off`; the patch of amqplib's internals stays only while this shows its
 * gain) or events (`SVC_BUS_EVENT_BATCHING=off`: each event its own message).
 */
async function onRealStandaloneWithout(what: 'frames' | 'events') {
  const env: Record<string, string> = { [what === 'frames' ? 'SVC_BUS_FRAME_BATCHING' : 'SVC_BUS_EVENT_BATCHING']: 'off' };
  const fleet = await startStandalone(true, { env });
  try {
    const developer = await prepareDeveloper(fleet.url);
    const watch = { standalone: fleet.process.pid, ...localInfrastructure() };
    const b1 = await measure(`B1 (${what} unbatched)`, echoCall(`${fleet.url}/api/v1/commands/${developer.slug}/echo`, developer.apiKey, watch));
    const b4 = await repeat(`B4 (${what} unbatched)`, () => runTasks(fleet.url, developer.apiKey, `/api/v1/commands/${developer.slug}/echo`, TASKS, CONNECTIONS), showTasks);
    return { b1, b4 };
  } finally {
    details.push(...(await fleet.stop()).map((l) => `Left behind: ${l}`));
  }
}

/**
 * B2 with TENANTS tenants at once, each with CONNECTIONS / TENANTS connections of its own: the
 * per-tenant runners and their fair share of the pool are on the path, as they are in use.
 */
async function severalTenants(url: string, developers: Developer[], watch: Watch): Promise<LoadResult[]> {
  const calls = developers.map((d) => echoCall(`${url}/api/v1/commands/${d.slug}/echo`, d.apiKey, undefined, CONNECTIONS / TENANTS));
  const together = async (durationSeconds: number): Promise<LoadResult> =>
    watchingCpu(watch, async () => {
      const results = await Promise.all(calls.map((call) => load({ ...call, durationSeconds })));
      const sum = (f: (r: LoadResult) => number) => results.reduce((total, r) => total + f(r), 0);
      return {
        answered: sum((r) => r.answered),
        rps: sum((r) => r.rps),
        p50Ms: median(results.map((r) => r.p50Ms)),
        p99Ms: Math.max(...results.map((r) => r.p99Ms)),
        failures: sum((r) => r.failures),
        clientCpuMs: sum((r) => r.clientCpuMs * r.answered) / Math.max(1, sum((r) => r.answered)),
      };
    });
  await together(WARM_SECONDS);
  return repeat(`B2 (${TENANTS} tenants)`, () => together(SECONDS), showLoad);
}

/**
 * B2 (with one tenant and with several), L1, and B7 twice: the first start creates the embedded
 * database (PGlite's initdb leaves memory behind), every later start opens it; both run one echo
 * call before going idle.
 */
async function onEmbeddedStandalone() {
  const first = await startStandalone(false);
  let developer: Developer;
  let b2: LoadResult[] | undefined;
  let b2Tenants: LoadResult[] | undefined;
  let l1: LatencyResult[] | undefined;
  let b7First: { process: number[]; tree: number[] } | undefined;
  try {
    developer = await prepareDeveloper(first.url);
    // The thread that answers requests, beside the process: the embedded database works in a thread of its own.
    const watch = { standalone: first.process.pid, 'its main thread': mainThreadOf(first.process.pid) };
    const echo = `${first.url}/api/v1/commands/${developer.slug}/echo`;
    l1 = await when(wanted('L1'), () => oneCaller('L1', echo, developer.apiKey));
    b2 = await when(wanted('B2'), () => measure('B2', echoCall(echo, developer.apiKey, watch)));
    b2Tenants = await when(wanted('B2t'), async () => {
      const others = [developer];
      while (others.length < TENANTS) others.push(await prepareDeveloper(first.url));
      return severalTenants(first.url, others, watch);
    });
    b7First = await when(wanted('B7'), () => idleMemory('B7 standalone, first start', first));
  } finally {
    await first.stop({ keepData: true });
  }
  const b7 = await when(wanted('B7'), async () => {
    const again = await startStandalone(false, { reuseDataDir: first.dataDir });
    try {
      await expectCall(200, again.url, `/api/v1/commands/${developer.slug}/echo`, { token: developer.apiKey, body: { text: 'warm' } });
      return await idleMemory('B7 standalone, restarted', again);
    } finally {
      await again.stop();
    }
  });
  if (!b7) await rm(first.dataDir, { recursive: true, force: true });
  return { b2, b2Tenants, l1, b7First, b7 };
}

/** The identity the gateway would sign for the developer, for calls straight to a service. */
function identityOf(developer: Developer): Identity {
  return personalIdentity({ userId: developer.userId, tenantId: developer.tenantId, slug: developer.slug, email: developer.email, tier: 'enterprise', developerMode: true });
}

/**
 * B8: a dashboard's bundle file through the gateway (JWT, visibility, inventory lookup, blob
 * stream) against `express.static` serving the same bytes (`src/static-server.mjs`), alternating.
 */
async function bundleServing(url: string, developer: Developer, watch: Watch): Promise<Array<{ gateway: LoadResult; statics: LoadResult }>> {
  const { entryPoint, staticDir } = await prepareBundle(url, developer);
  const port = await freePort();
  const server = launch(['bench/src/static-server.mjs'], { PATH: process.env.PATH, PORT: String(port), STATIC_DIR: staticDir }, join(staticDir, 'static-server.log'));
  try {
    const viaGateway: LoadOptions = { url: `${url}${entryPoint}`, headers: { authorization: `Bearer ${developer.token}` }, connections: CONNECTIONS, durationSeconds: SECONDS, watch };
    const statics: LoadOptions = { url: `http://127.0.0.1:${port}/main.js`, connections: CONNECTIONS, durationSeconds: SECONDS, watch: { static: server.pid } };
    await waitForHealthy(server, statics.url, 10_000);
    await load({ ...viaGateway, durationSeconds: WARM_SECONDS });
    await load({ ...statics, durationSeconds: WARM_SECONDS });
    return await repeat('B8', async () => ({ gateway: await load(viaGateway), statics: await load(statics) }), (p) => `gateway ${showLoad(p.gateway)}; express.static ${showLoad(p.statics)}`);
  } finally {
    await server.stop();
    await rm(staticDir, { recursive: true, force: true });
  }
}

/** The local Postgres's and RabbitMQ's processes: their share of a run on the real infrastructure. */
const localInfrastructure = (): Watch => ({ postgres: processesNamed('postgres'), rabbitmq: processesNamed('beam.smp') });

/**
 * Every process of a fleet by a short name (`gateway`, `execution`, `execution-worker`,
 * `admin`, …, the runner as `runner`), with Postgres's and RabbitMQ's processes: B1f's CPU per
 * run of each, which says where a run's cost goes.
 */
function everyProcess(rootPid: number): Watch {
  const watch: Watch = {};
  for (const [script, pid] of Object.entries(processIds(rootPid))) {
    const service = /(?:services\/)?([a-z-]+)\/dist\/(main|worker)\.js$/.exec(script);
    if (service) watch[service[2] === 'worker' ? `${service[1]}-worker` : service[1]!] = pid;
    else if (pid !== rootPid) watch.runner = [...[watch.runner ?? []].flat(), pid];
  }
  return { ...watch, ...localInfrastructure() };
}

async function onProcessFleet() {
  const fleet = await startProcessFleet();
  try {
    const developer = await prepareDeveloper(fleet.url);
    const pids = processIds(fleet.process.pid);
    const pidOf = (script: string) => {
      const pid = pids[script];
      if (pid === undefined) throw new Error(`the fleet has no ${script} process`);
      return pid;
    };
    const gateway = pidOf('gateway/dist/main.js');
    const storage = pidOf('services/storage/dist/main.js');
    const b6 = await when(wanted('B6'), async () => {
      await expectCall(201, fleet.url, '/api/v1/storage/bench', { method: 'PUT', token: developer.token, body: { data: { text: 'bench', n: 1 } } });
      const viaGateway: LoadOptions = { url: `${fleet.url}/api/v1/storage/bench`, headers: { authorization: `Bearer ${developer.token}` }, connections: CONNECTIONS, durationSeconds: SECONDS, watch: { gateway, storage } };
      // The internal token lives 60 s: signed anew for every run.
      const direct = (): LoadOptions => ({ url: `${fleet.storageUrl}/api/v1/storage/bench`, headers: { 'x-svc-identity': signInternalIdentity(identityOf(developer), fleet.internalSecret) }, connections: CONNECTIONS, durationSeconds: SECONDS, watch: { storage } });
      await load({ ...viaGateway, durationSeconds: WARM_SECONDS });
      await load({ ...direct(), durationSeconds: WARM_SECONDS });
      // Alternating, so that a drift of the machine touches both alike.
      return repeat('B6', async () => ({ gateway: await load(viaGateway), direct: await load(direct()) }), (p) => `gateway ${showLoad(p.gateway)}; direct ${showLoad(p.direct)}`);
    });
    const b8 = await when(wanted('B8'), () => bundleServing(fleet.url, developer, { gateway, dashboard: pidOf('services/dashboard/dist/main.js') }));
    const echo = `${fleet.url}/api/v1/commands/${developer.slug}/echo`;
    const l1 = await when(wanted('L1'), () => oneCaller('L1 (separate processes)', echo, developer.apiKey));
    // The runner exists once the first run has started it: the warm-up's, before the processes are listed.
    const b1 = await when(wanted('B1f'), async () => {
      await load({ ...echoCall(echo, developer.apiKey), durationSeconds: WARM_SECONDS });
      return repeat('B1 (separate processes)', () => load(echoCall(echo, developer.apiKey, everyProcess(fleet.process.pid))), showLoad);
    });
    const b7 = await when(wanted('B7'), () => idleMemory('B7 fleet', fleet, true));
    return { b6, b8, b1, l1, b7 };
  } finally {
    details.push(...(await fleet.stop()).map((l) => `Left behind: ${l}`));
  }
}

const rps = (results: LoadResult[]) => results.map((r) => r.rps);
function showTasks(r: TaskRunResult): string {
  return `${fmt(r.tasksPerSecond)} tasks/s (${fmt(r.seconds)} s, submitted in ${fmt(r.submitSeconds)} s), ${r.succeeded} success, ${r.failed} failed, ${r.lost} lost`;
}
const pct = (a: number, b: number) => `${fmt((100 * a) / b)} % of`;

const floorNeeded = wanted('B0', 'B1', 'B1f', 'B2', 'B2t', 'L1');
const b0Runs = await when(floorNeeded, baseline);
const real = await when(wanted('B1', 'B3', 'B4', 'B5'), onRealStandalone);
const unbatched = await when(wanted('frames'), () => onRealStandaloneWithout('frames'));
const eventsUnbatched = await when(wanted('events'), () => onRealStandaloneWithout('events'));
const embedded = await when(wanted('B2', 'B2t', 'L1', 'B7'), onEmbeddedStandalone);
const fleet = await when(wanted('B1f', 'B6', 'B7', 'B8', 'L1'), onProcessFleet);

const base = median(rps(b0Runs?.bare ?? []));
/** The express floor, `(B0)`: the targets of the runs through the platform are shares of it. */
const floor = median(rps(b0Runs?.express ?? []));
const b1 = median(rps(real?.b1 ?? []));
const tasks = (f: (r: TaskRunResult) => number) => (real?.b4 ?? []).map(f);
const lost = tasks((r) => r.tasks - r.succeeded).reduce((a, b) => a + b, 0);
const bareP50 = median((b0Runs?.bareOne ?? []).map((r) => r.p50Ms));
/** L1: a run's p50 above bare Node's, one caller, in µs (the report's one decimal would hide what matters in ms). */
const aboveBare = (results: LatencyResult[]) => results.map((r) => 1000 * (r.p50Ms - bareP50));

/** A row of the table, if its figure was measured. */
function add(results: unknown, row: () => Row): void {
  if (results !== undefined) rows.push(row());
}

if (b0Runs) {
  add(b0Runs, () => ({ id: 'B0', what: 'bare Node `http`, small JSON body', unit: 'req/s', runs: rps(b0Runs.bare), target: 'baseline' }));
  add(b0Runs, () => ({ id: '(B0)', what: 'the same request through an express app that only parses the body and sends it back (the floor of every service; the targets below are shares of it)', unit: 'req/s', runs: rps(b0Runs.express), ratio: `${pct(floor, base)} B0`, target: '' }));
}
add(real?.b1, () => ({ id: 'B1', what: '`POST /api/v1/commands/{ns}/echo`, gateway, standalone on real infra', unit: 'req/s', runs: rps(real!.b1!), ratio: `${pct(b1, floor)} (B0)`, target: '≥ 40 % of (B0)', met: b1 >= 0.4 * floor }));
add(real?.b1, () => ({ id: 'B1', what: '… its p99 latency', unit: 'ms', runs: real!.b1!.map((r) => r.p99Ms), target: '≤ 50 ms', met: median(real!.b1!.map((r) => r.p99Ms)) <= 50 }));
add(fleet?.b1, () => {
  const b1f = median(rps(fleet!.b1!));
  return { id: 'B1f', what: 'the same on the fleet of separate processes on real infra', unit: 'req/s', runs: rps(fleet!.b1!), ratio: `${pct(b1f, floor)} (B0)`, target: '≥ 30 % of (B0)', met: b1f >= 0.3 * floor };
});
add(fleet?.b1, () => ({ id: 'B1f', what: '… its p99 latency', unit: 'ms', runs: fleet!.b1!.map((r) => r.p99Ms), target: '' }));
add(embedded?.b2, () => {
  const b2 = median(rps(embedded!.b2!));
  return { id: 'B2', what: 'the same on the embedded standalone', unit: 'req/s', runs: rps(embedded!.b2!), ratio: `${pct(b2, floor)} (B0)`, target: '≥ 50 % of (B0)', met: b2 >= 0.5 * floor };
});
add(embedded?.b2Tenants, () => {
  const b2t = median(rps(embedded!.b2Tenants!));
  return { id: 'B2', what: `… with ${TENANTS} tenants at once, ${CONNECTIONS / TENANTS} connections each (a runner per tenant, their fair share of the pool)`, unit: 'req/s', runs: rps(embedded!.b2Tenants!), ratio: `${pct(b2t, floor)} (B0)`, target: '≥ 50 % of (B0)', met: b2t >= 0.5 * floor };
});
add(embedded?.l1, () => {
  const l1 = median(aboveBare(embedded!.l1!));
  return { id: 'L1', what: 'one caller, the embedded echo run: p50 minus bare Node\'s p50 (same request, one caller)', unit: 'µs', runs: aboveBare(embedded!.l1!), target: '≤ +300 µs (0.3 ms)', met: l1 <= 300 };
});
add(fleet?.l1, () => ({ id: 'L1', what: '… the same on the fleet of separate processes', unit: 'µs', runs: aboveBare(fleet!.l1!), target: '' }));
add(real?.b3, () => {
  const b3 = median(rps(real!.b3!));
  return { id: 'B3', what: 'MCP `tools/call` of the echo tool (SDK client and transport fetching over kept-alive `http`, 32 in flight)', unit: 'calls/s', runs: rps(real!.b3!), ratio: `${pct(b3, b1)} B1`, target: '≥ 85 % of B1', met: b3 >= 0.85 * b1 };
});
add(real?.b4, () => ({ id: 'B4', what: `${TASKS.toLocaleString('en-US')} async tasks submitted, then polled to \`success\``, unit: 'tasks/s', runs: tasks((r) => r.tasksPerSecond), target: '≥ 1,000 tasks/s; none lost', met: median(tasks((r) => r.tasksPerSecond)) >= 1000 && lost === 0 }));
add(real?.b4, () => ({ id: 'B4', what: '… tasks not in `success` at the end (all runs)', unit: '', runs: tasks((r) => r.tasks - r.succeeded), target: '0', met: lost === 0 }));
add(real?.b5, () => {
  const b5 = real!.b5!.map((times) => percentile(times, 50));
  return { id: 'B5', what: `first call of a newly installed pack (p50 of ${COLD_PACKS} packs per run)`, unit: 'ms', runs: b5, target: 'p50 ≤ 80 ms', met: median(b5) <= 80 };
});
add(real?.b5Python, () => ({ id: '(B5)', what: `the same for a Python pack published as a wheel (p50 of ${COLD_PACKS} packs per run)`, unit: 'ms', runs: real!.b5Python!.map((times) => percentile(times, 50)), target: '' }));
add(real?.b1Python, () => ({ id: '(B1)', what: 'B1 with a Python pack (warm sync echo, same fleet)', unit: 'req/s', runs: rps(real!.b1Python!), ratio: `${pct(median(rps(real!.b1Python!)), b1)} B1`, target: '' }));
if (fleet?.b6) {
  const b6Gateway = median(fleet.b6.map((p) => p.gateway.rps));
  const b6Direct = median(fleet.b6.map((p) => p.direct.rps));
  rows.push(
    { id: 'B6', what: '`GET /api/v1/storage/{key}` through the gateway (separate processes)', unit: 'req/s', runs: fleet.b6.map((p) => p.gateway.rps), ratio: `${pct(b6Gateway, b6Direct)} direct`, target: '≥ 60 % of direct', met: b6Gateway >= 0.6 * b6Direct },
    { id: 'B6', what: '… straight to the storage service', unit: 'req/s', runs: fleet.b6.map((p) => p.direct.rps), target: '' },
  );
}
if (fleet?.b8) {
  const b8Gateway = median(fleet.b8.map((p) => p.gateway.rps));
  const b8Static = median(fleet.b8.map((p) => p.statics.rps));
  rows.push(
    { id: 'B8', what: 'a 64 KiB dashboard bundle file (`GET /api/v1/dashboards/{slug}/bundle/{version}/main.js`) through the gateway (separate processes)', unit: 'req/s', runs: fleet.b8.map((p) => p.gateway.rps), ratio: `${pct(b8Gateway, b8Static)} express.static`, target: '≥ 50 % of express.static', met: b8Gateway >= 0.5 * b8Static },
    { id: 'B8', what: '… the same file from `express.static`', unit: 'req/s', runs: fleet.b8.map((p) => p.statics.rps), target: '' },
  );
}
if (embedded?.b7 && embedded.b7First) {
  const { b7, b7First } = embedded;
  rows.push(
    { id: 'B7', what: 'resident memory, idle standalone process (embedded), restarted on its data', unit: 'MB', runs: b7.process, target: '≤ 200 MB', met: median(b7.process) <= 200 },
    { id: 'B7', what: '… with its pack runner (a child process)', unit: 'MB', runs: b7.tree, target: '≤ 200 MB', met: median(b7.tree) <= 200 },
    { id: 'B7', what: '… the same as the sum of proportional sets (the node binary\'s pages, which the runner shares, counted once)', unit: 'MB', runs: b7.treePss, target: '' },
    { id: 'B7', what: '… the process at its first start, which creates the database, after the B2 runs', unit: 'MB', runs: b7First.process, target: '≤ 200 MB', met: median(b7First.process) <= 200 },
  );
}
if (fleet?.b7) {
  const { b7 } = fleet;
  rows.push(
    { id: 'B7', what: 'resident memory, idle fleet of separate processes on real infra (all of them, runner and launcher included), after the B6 and B1 runs: sum of resident sets', unit: 'MB', runs: b7.tree, target: '' },
    { id: 'B7', what: '… the same as the sum of proportional sets (pages the processes share counted once)', unit: 'MB', runs: b7.treePss, target: '≤ 600 MB', met: median(b7.treePss) <= 600 },
  );
}
add(real?.b3NodeFetch, () => ({ id: '(B3)', what: 'B3 with the transport on Node\'s built-in fetch, for comparison', unit: 'calls/s', runs: rps(real!.b3NodeFetch!), ratio: `${pct(median(rps(real!.b3NodeFetch!)), b1)} B1`, target: '' }));
for (const [results, what, variable] of [
  [unbatched, 'frame', 'SVC_BUS_FRAME_BATCHING'],
  [eventsUnbatched, 'event', 'SVC_BUS_EVENT_BATCHING'],
] as const) {
  add(results, () => ({ id: '(B1)', what: `B1 with the bus's ${what} batching off (\`${variable}=off\`), same run`, unit: 'req/s', runs: rps(results!.b1), ratio: `${pct(median(rps(results!.b1)), b1)} B1`, target: '' }));
  add(results, () => ({ id: '(B4)', what: `B4 with the bus's ${what} batching off, same run`, unit: 'tasks/s', runs: results!.b4.map((r) => r.tasksPerSecond), ratio: `${pct(median(results!.b4.map((r) => r.tasksPerSecond)), median(tasks((r) => r.tasksPerSecond)))} B4`, target: '' }));
}

for (const [id, results] of [['B0', b0Runs?.bare], ['(B0)', b0Runs?.express], ['B1', real?.b1], ['B1f', fleet?.b1], ['B2', embedded?.b2], ['B2 tenants', embedded?.b2Tenants], ['B3', real?.b3], ['(B3)', real?.b3NodeFetch]] as const) {
  if (results) noteFailures(id, results);
}
if (real?.b1 && real.b3 && real.b3NodeFetch) {
  details.push(
    `CPU of the load generator per answered request (median of the runs; it shares the two cores with the fleet): B1 autocannon ${fmt(median(real.b1.map((r) => r.clientCpuMs)))} ms, B3 MCP SDK client ${fmt(median(real.b3.map((r) => r.clientCpuMs)))} ms, on Node's fetch ${fmt(median(real.b3NodeFetch.map((r) => r.clientCpuMs)))} ms.`,
  );
}
/** "gateway 0.55 ms, storage 0.50 ms": each watched process's CPU per answer, median of the runs. */
const serverCpu = (results: LoadResult[]) =>
  Object.keys(results[0]?.serverCpuMs ?? {})
    .map((name) => `${name} ${median(results.map((r) => r.serverCpuMs[name]!)).toFixed(2)} ms`)
    .join(', ');
const cpuOf = ([label, results]: [string, LoadResult[] | undefined]) => (results ? [`${label}: ${serverCpu(results)}`] : []);
const cpuLines = (
  [
    ['B1', real?.b1],
    ['B1 with event batching off', eventsUnbatched?.b1],
    ['B2', embedded?.b2],
    [`B2 with ${TENANTS} tenants`, embedded?.b2Tenants],
    ['B3', real?.b3],
    ['B6 through the gateway', fleet?.b6?.map((p) => p.gateway)],
    ['B6 straight', fleet?.b6?.map((p) => p.direct)],
    ['B8 through the gateway', fleet?.b8?.map((p) => p.gateway)],
    ['B8 express.static', fleet?.b8?.map((p) => p.statics)],
    ['B1f, every process of the fleet and the local Postgres and RabbitMQ', fleet?.b1],
  ] as Array<[string, LoadResult[] | undefined]>
).flatMap(cpuOf);
details.push(`CPU per answered request of the processes under test (from \`/proc\`, all their threads; median of the runs): ${cpuLines.join('. ')}.`);
if (b0Runs?.bareOne) {
  details.push(`L1 (one caller, ${SECONDS} s a run): bare Node p50 ${b0Runs.bareOne.map((r) => r.p50Ms.toFixed(3)).join(' · ')} ms; embedded echo run p50 ${(embedded?.l1 ?? []).map((r) => r.p50Ms.toFixed(3)).join(' · ')} ms; on the separate processes ${(fleet?.l1 ?? []).map((r) => r.p50Ms.toFixed(3)).join(' · ')} ms.`);
}
details.push(`1-minute load average as each figure started (2 cores; the suite itself adds about 2 while it runs): ${loadAtStart.join(', ')}.`);
details.push(`CPU time the hypervisor gave to other guests while each figure ran (\`steal\` of /proc/stat, share of the machine's): ${stolenDuring.join(', ')}.`);
if (real?.b5) details.unshift(`B5 first calls (ms): ${real.b5.map((t) => t.map(fmt).join(', ')).join(' | ')}.`);
if (real?.b4) details.unshift(`B4 per run: ${real.b4.map((r) => `${fmt(r.seconds)} s end to end, submitted in ${fmt(r.submitSeconds)} s, ${r.failed} failed, ${r.lost} lost`).join('; ')}.`);

if (partial) {
  // A partial run leaves BENCHMARKS.md alone: its table is the whole suite's.
  console.log(`\nBENCH_ONLY=${process.env.BENCH_ONLY}, ${fmt((Date.now() - startedAt) / 60_000)} min:\n\n${resultsTable(rows)}\n\n${details.map((d) => `- ${d}`).join('\n')}`);
} else {
  writeReport(join(ROOT, 'BENCHMARKS.md'), {
    machine: machineFacts(),
    command: 'npm run bench',
    settings: `${RUNS} runs of ${SECONDS} s per load figure after a ${WARM_SECONDS} s warm-up, ${CONNECTIONS} connections (autocannon, one request in flight each; L1 one caller, one request at a time), rate limits off (\`RATE_LIMIT_ENABLED=false\`), bcrypt cost 4 for the set-up's sign-ins, default log level. Every fleet runs in processes of its own; the load generator is this one Node process. Memory is read from /proc, in MB of 10⁶ bytes, ${IDLE_SECONDS} s after the last request (V8 gives a busy heap's memory back only after some seconds of rest; the reading at ${EARLY_SECONDS} s is in the details): the resident set of the launched process, and of it with all its descendants; for the fleet also the sum of proportional sets, which counts pages the processes share (the node binary's) once.`,
    loadAverage: { before: loadBefore, after: loadavg() },
    stolen: stolenShare(cpuBefore),
    minutes: (Date.now() - startedAt) / 60_000,
    rows,
    details,
  });
  console.log(`BENCHMARKS.md written (${fmt((Date.now() - startedAt) / 60_000)} min).`);
}
