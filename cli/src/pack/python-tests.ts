import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `svc pack test` for a Python pack: its `tests/` run by the local interpreter's pytest when it
 * is installed, else by the standard library's unittest, in the pack's folder, with the pack and
 * `vendor/` (folders and wheels) importable as they are where it runs.
 */

export interface PythonTestOptions {
  verbose?: boolean;
  filter?: string;
}

export interface PythonTestRun {
  runner: 'pytest' | 'unittest';
  code: number;
  /** What the runner printed, both streams. */
  output: string;
}

/** What a Python pack's code imports from besides the standard library: the pack, then `vendor/` and its wheels. */
export function pythonPath(packDir: string): string[] {
  const vendor = join(packDir, 'vendor');
  let wheels: string[] = [];
  try {
    wheels = readdirSync(vendor).filter((name) => name.endsWith('.whl')).sort().map((name) => join(vendor, name));
  } catch {
    // No vendor/ folder.
  }
  return [packDir, vendor, ...wheels];
}

function hasPytest(python: string, packDir: string): boolean {
  return spawnSync(python, ['-c', 'import pytest'], { cwd: packDir, stdio: 'ignore' }).status === 0;
}

/** The runner's arguments: the files given, or everything under `tests/`. */
export function pythonTestArgs(runner: PythonTestRun['runner'], tests: string[], options: PythonTestOptions): string[] {
  // No cache provider: pytest would write .pytest_cache into the pack.
  if (runner === 'pytest') return ['-p', 'no:cacheprovider', options.verbose ? '-v' : '-q', ...(options.filter ? ['-k', options.filter] : []), ...(tests.length > 0 ? tests : ['tests'])];
  const selection = tests.length > 0 ? tests : ['discover', '-s', 'tests', '-t', '.'];
  return [...(options.verbose ? ['-v'] : []), ...(options.filter ? ['-k', options.filter] : []), ...selection];
}

/** `python -B -c …`: the test runner run as `-m` would, with the pack's import path in front (JSON strings are Python literals). */
function launcher(runner: PythonTestRun['runner'], packDir: string): string[] {
  const source = `import runpy, sys; sys.path[:0] = ${JSON.stringify(pythonPath(packDir))}; sys.argv[0] = ${JSON.stringify(runner)}; runpy.run_module(${JSON.stringify(runner)}, run_name="__main__", alter_sys=True)`;
  return ['-B', '-c', source];
}

/** Runs the tests, handing their output to `echo` as it comes. */
export function runPythonTests(python: string, packDir: string, tests: string[], options: PythonTestOptions, echo: (chunk: Buffer) => void): Promise<PythonTestRun> {
  const runner = hasPytest(python, packDir) ? 'pytest' : 'unittest';
  return new Promise((resolve, reject) => {
    const child = spawn(python, [...launcher(runner, packDir), ...pythonTestArgs(runner, tests, options)], { cwd: packDir, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const collect = (chunk: Buffer) => {
      chunks.push(chunk);
      echo(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolve({ runner, code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

const count = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);

/** The counts of a run from its closing lines (`Ran 3 tests in 0.002s` / `FAILED (failures=1)`, or pytest's `2 passed, 1 failed in 0.1s`). */
export function pythonTestSummary(run: PythonTestRun): { tests: number; pass: number; fail: number; skipped: number; duration_ms: number } {
  const text = run.output;
  if (run.runner === 'pytest') {
    const pass = count(text, /(\d+) passed/);
    const fail = count(text, /(\d+) failed/) + count(text, /(\d+) errors?\b/);
    const skipped = count(text, /(\d+) skipped/);
    return { tests: pass + fail + skipped, pass, fail, skipped, duration_ms: Math.round(Number(/ in ([\d.]+)s/.exec(text)?.[1] ?? 0) * 1000) };
  }
  const tests = count(text, /^Ran (\d+) tests? in/m);
  const fail = count(text, /failures=(\d+)/) + count(text, /errors=(\d+)/);
  const skipped = count(text, /skipped=(\d+)/);
  return { tests, pass: tests - fail - skipped, fail, skipped, duration_ms: Math.round(Number(/^Ran \d+ tests? in ([\d.]+)s/m.exec(text)?.[1] ?? 0) * 1000) };
}
