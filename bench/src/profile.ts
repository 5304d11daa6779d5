// `npm run bench:profile -- [--busiest <seconds>] <file or folder>...`: for each `.cpuprofile`
// under the paths given, prints where the busy time went (self time by package and by function)
// and writes the folded stacks beside it (`<name>.folded`) for a flame graph (speedscope, inferno,
// flamegraph.pl); with `--busiest`, only of the stretch of that length in which the process was
// busiest (the load run rather than start-up and set-up).
// The `.cpuprofile` itself opens as a flame chart in Chrome DevTools' Performance panel.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { busiestWindow, summarize, type CpuProfile, type Share } from './profile-summary.js';

function profilesUnder(path: string): string[] {
  if (!existsSync(path)) {
    console.error(`No such file or folder: ${path}`);
    process.exit(2);
  }
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()
    .map((name) => join(path, name));
}

const table = (shares: Share[]) => shares.map((s) => `  ${s.percent.toFixed(1).padStart(5)} %  ${(s.micros / 1000).toFixed(0).padStart(7)} ms  ${s.name}`).join('\n');

// Relative to where `npm run` was typed, not to this package's folder where pnpm runs it.
const args = process.argv.slice(2);
const busiest = args[0] === '--busiest' ? Number(args.splice(0, 2)[1]) : undefined;
const paths = args.map((path) => resolve(process.env.INIT_CWD ?? process.cwd(), path));
if (paths.length === 0) {
  console.error('usage: npm run bench:profile -- [--busiest <seconds>] <.cpuprofile file or folder>...');
  process.exit(2);
}
for (const file of paths.flatMap(profilesUnder)) {
  const whole = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const summary = summarize(busiest ? busiestWindow(whole, busiest) : whole);
  writeFileSync(`${file.replace(/\.cpuprofile$/, '')}.folded`, summary.folded.join('\n') + '\n');
  const seconds = (micros: number) => (micros / 1e6).toFixed(2);
  console.log(`\n${file}: busy ${seconds(summary.busyMicros)} s, idle ${seconds(summary.idleMicros)} s`);
  console.log(`self time by package:\n${table(summary.byPackage)}`);
  console.log(`self time by function:\n${table(summary.byFunction)}`);
}
