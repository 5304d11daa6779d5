import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { parseManifest } from '@svc/pack-sdk';
import { findPackDir, readManifestText } from '../pack/project.js';
import { pythonTestSummary, runPythonTests } from '../pack/python-tests.js';

export interface TestOptions {
  coverage?: boolean;
  verbose?: boolean;
  parallel?: boolean;
  filter?: string;
}

export interface TestSummary {
  tests: number;
  pass: number;
  fail: number;
  skipped: number;
  duration_ms: number;
}

/** The closing `# name value` lines of a TAP report (Node's `tap` reporter). */
export function tapSummary(tap: string): TestSummary {
  const value = (name: string) => Number(new RegExp(`^# ${name} (\\d+(?:\\.\\d+)?)$`, 'm').exec(tap)?.[1] ?? 0);
  return { tests: value('tests'), pass: value('pass'), fail: value('fail'), skipped: value('skipped') + value('todo'), duration_ms: Math.round(value('duration_ms')) };
}

/** `node --test` arguments: a readable reporter for people (unless JSON), TAP into `tapFile` for the summary. */
export function nodeTestArgs(options: TestOptions, tests: string[], tapFile: string, human: boolean): string[] {
  const args = ['--test'];
  if (human) args.push(`--test-reporter=${options.verbose ? 'spec' : 'dot'}`, '--test-reporter-destination=stdout');
  args.push('--test-reporter=tap', `--test-reporter-destination=${tapFile}`);
  args.push(`--test-concurrency=${options.parallel ? Math.max(2, availableParallelism()) : 1}`);
  if (options.coverage) args.push('--experimental-test-coverage');
  if (options.filter) args.push(`--test-name-pattern=${options.filter}`);
  return [...args, ...tests];
}

/** Whether the pack in `packDir` says `runtime: python` (a manifest that does not parse is left to the tests). */
async function isPythonPack(packDir: string): Promise<boolean> {
  try {
    return parseManifest(await readManifestText(packDir)).runtime === 'python';
  } catch {
    return false;
  }
}

/** A Python pack's tests (`pack/python-tests.ts`): pytest when installed, else unittest. */
async function pythonPackTest(ctx: Context, packDir: string, tests: string[], options: TestOptions): Promise<void> {
  const human = !ctx.out.json;
  const run = await runPythonTests(ctx.io.env.python, packDir, tests, options, (chunk) => (human ? ctx.io.stdout.write(chunk) : undefined));
  const summary = pythonTestSummary(run);
  const data = { path: packDir, passed: run.code === 0, runner: run.runner, ...summary };
  if (run.code !== 0) {
    if (!human) ctx.out.debug(run.output);
    throw new CliError('command', `${summary.fail || 'Some'} of ${summary.tests} tests failed`, { code: 'TESTS_FAILED', details: data });
  }
  ctx.out.result(data, `${summary.pass} of ${summary.tests} tests passed${summary.skipped ? `, ${summary.skipped} skipped` : ''} (${run.runner}, ${summary.duration_ms} ms)`);
}

/**
 * Runs the pack's tests with Node's own test runner (`tests/**\/*.test.js` by default, or the
 * files given), in the pack's folder; a Python pack's with pytest or unittest. Failing tests
 * are the pack's code failing: exit code 10.
 */
export async function packTest(ctx: Context, tests: string[], options: TestOptions): Promise<void> {
  const packDir = await findPackDir(ctx.io.cwd);
  if (await isPythonPack(packDir)) return pythonPackTest(ctx, packDir, tests, options);
  const scratch = await mkdtemp(join(tmpdir(), 'svc-test-'));
  ctx.onExit(() => rm(scratch, { recursive: true, force: true }));
  const tapFile = join(scratch, 'report.tap');
  const human = !ctx.out.json;
  const args = nodeTestArgs(options, tests.length > 0 ? tests : ['tests/'], tapFile, human);
  ctx.out.debug(`node ${args.join(' ')}`);
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: packDir, stdio: human ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'ignore', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => ctx.io.stdout.write(chunk));
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
      if (human) ctx.io.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (exit) => {
      if (errors && !human) ctx.out.debug(errors);
      resolve(exit ?? 1);
    });
  });
  const summary = tapSummary(await readFile(tapFile, 'utf8').catch(() => ''));
  const data = { path: packDir, passed: code === 0, ...summary };
  if (code !== 0) {
    throw new CliError('command', `${summary.fail || 'Some'} of ${summary.tests} tests failed`, { code: 'TESTS_FAILED', details: data });
  }
  ctx.out.result(data, `${summary.pass} of ${summary.tests} tests passed${summary.skipped ? `, ${summary.skipped} skipped` : ''} (${summary.duration_ms} ms)`);
}
