import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, SVC_BIN } from './testing/run-cli.js';

/** A module hook that writes each file Node loads to stderr, one `loaded <url>` line each. */
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function load(url, context, next) {
  if (url.startsWith('file:')) process.stderr.write('loaded ' + url + '\\\\n');
  return next(url, context);
}\`));
`)}`;

/** Packages of the pack toolchain and of single commands: none of them is needed to parse a command line. */
const HEAVY = ['zod', 'ajv', 'yaml', 'semver', 'prom-client', 'tar-stream', 'fflate', 'croner', 're2js', 'esbuild', '@modelcontextprotocol/sdk', 'open'];

/** The packages the built `svc` loads for `args`. */
async function packagesLoaded(args: string[], cwd: string): Promise<string[]> {
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', RECORD_LOADS, SVC_BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, SVC_CONFIG: join(cwd, 'config.toml') } }).catch((err: { stderr: string }) => err);
  const names = new Set<string>();
  for (const [, path] of stderr.matchAll(/^loaded file:\/\/.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) names.add(path!);
  return [...names].sort();
}

describe('what an invocation of svc loads', () => {
  let dir: string;
  beforeAll(async () => {
    requireBuiltCli();
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-startup-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('parses a command line with the command tree alone: --version, --help and `run` load no toolchain', async () => {
    for (const args of [['--version'], ['--help'], ['run', 'acme.echo', '--help']]) {
      const loaded = await packagesLoaded(args, dir);
      expect(loaded).toContain('commander');
      expect(loaded.filter((name) => HEAVY.includes(name))).toEqual([]);
    }
  });

  it('loads the pack toolchain for a pack command, when it runs', async () => {
    const loaded = await packagesLoaded(['pack', 'validate', dir], dir);
    expect(loaded).toEqual(expect.arrayContaining(['ajv', 'yaml']));
  });
});
