// `npm run faults`: the fault suite's long run (each fault held 10 s under load) on real Postgres,
// RabbitMQ and Redis, its figures written to RELIABILITY.md under "Faults". Build first
// (`npm run build`): the fleet runs from the built bundles.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const missing = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL'].filter((name) => !process.env[name]);
if (missing.length > 0) {
  console.error(`The fault suite needs real infrastructure; set: ${missing.join(', ')}`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'svc-faults-'));
const report = join(scratch, 'faults.json');
const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'tests-e2e/src/faults.e2e.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, FAULTS_FULL: '1', FAULTS_REPORT: report },
});
const { timing, figures, afterKillAll } = JSON.parse(readFileSync(report, 'utf8'));
rmSync(scratch, { recursive: true, force: true });

const answers = (counts) => Object.entries(counts).map(([answer, n]) => `${n} × ${answer}`).join(', ') || 'none';
const rows = figures.map((f) =>
  `| ${f.fault} | ${f.submitted} (${answers(f.submits)}) | ${f.terminal} | ${f.lost} | ${f.ranTwice} | ${answers(f.sync)} | ${answers(f.health)} | ${f.recoveryMs === null ? 'not within 30 s' : `${(f.recoveryMs / 1000).toFixed(1)} s`} |`,
);
const section = [
  '<!-- faults:start (written by `npm run faults`) -->',
  `Measured ${new Date().toISOString().slice(0, 10)} on this machine (two shared cores): each fault held ${timing.holdMs / 1000} s`,
  `after ${timing.leadMs / 1000} s of load, the load going on at least ${timing.afterMs / 1000} s after it. Load: two submitters of`,
  'asynchronous 200 ms tasks pausing 150 ms between asks, a synchronous call every 300 ms and `GET /health` every 250 ms, all as one',
  'enterprise user (within its 1,000 requests a minute).',
  '',
  '| Fault | Tasks asked (answers) | Ended in one terminal state | Lost | Run twice to completion | Synchronous calls from the fault on | `/health` during the fault | Recovery after the fault ended |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  afterKillAll
    ? `Every process killed with SIGKILL at once mid-load and started again by the supervisor: ${afterKillAll.acknowledged} writes acknowledged (storage, secrets, tasks, dashboards, schedules, webhooks), the others answered ${answers(afterKillAll.unanswered)}; ${afterKillAll.lost} of the acknowledged missing afterwards.`
    : 'The kill of every process did not run.',
  '<!-- faults:end -->',
].join('\n');

let reliability;
try {
  reliability = readFileSync('RELIABILITY.md', 'utf8');
} catch {
  reliability = '# Reliability\n';
}
const marked = /<!-- faults:start[\s\S]*?<!-- faults:end -->/;
if (marked.test(reliability)) reliability = reliability.replace(marked, section);
else reliability = `${reliability.trimEnd()}\n\n## Faults\n\n${section}\n`;
writeFileSync('RELIABILITY.md', reliability);
console.log(`RELIABILITY.md: Faults written (${figures.length} faults)`);
process.exit(run.status ?? 1);
