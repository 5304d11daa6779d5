import { describe, expect, it } from 'vitest';
import { copyPaths, execForm, ignoredBy, parseDockerfile, type Stage } from './dockerfile.js';
import { builds, exists, fleetProcesses, isDirectory, packageOf, read, sourceOf } from './repo.js';
import { PROCESS_ENV } from '../../../scripts/node-flags.mjs';

const DOCKERFILE = 'deploy/docker/Dockerfile';
const dockerfile = parseDockerfile(read(DOCKERFILE));
const runtime = dockerfile.stages.at(-1)!;
const runCommands = dockerfile.stages.flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args));

/** What the runtime stage copies, as `<stage>:<path>` → destination under WORKDIR /app. */
function runtimeCopies(stage: Stage): Map<string, string> {
  const copies = new Map<string, string>();
  for (const instruction of stage.instructions.filter((i) => i.keyword === 'COPY')) {
    const { from, sources, destination } = copyPaths(instruction);
    for (const source of sources) copies.set(`${from ?? 'context'}:${source.replace(/^\/app\//, '')}`, destination.replace(/^\.\//, ''));
  }
  return copies;
}

describe('the Dockerfile parser', () => {
  it('joins continued lines, skips comments and names the stages', () => {
    const parsed = parseDockerfile('ARG BASE=node:20-slim\n# note\nFROM ${BASE} AS one\nRUN a \\\n  # inside\n  && b\nFROM one\nCMD ["node", "x.js"]\n');
    expect(parsed.globalArgs).toEqual({ BASE: 'node:20-slim' });
    expect(parsed.stages.map((s) => [s.from, s.name])).toEqual([['${BASE}', 'one'], ['one', undefined]]);
    expect(parsed.stages[0]!.instructions).toEqual([{ keyword: 'RUN', args: 'a && b' }]);
    expect(execForm(parsed.stages[1]!.instructions[0]!)).toEqual(['node', 'x.js']);
  });

  it('reads .dockerignore patterns the way Docker does for our file', () => {
    const ignore = '**/node_modules\n.git\nk8s\n*.log\n!keep.log\n';
    expect(ignoredBy(ignore, 'node_modules')).toBe(true);
    expect(ignoredBy(ignore, 'services/identity/node_modules/x')).toBe(true);
    expect(ignoredBy(ignore, 'k8s/base/kustomization.yaml')).toBe(true);
    expect(ignoredBy(ignore, 'a.log')).toBe(true);
    expect(ignoredBy(ignore, 'keep.log')).toBe(false);
    expect(ignoredBy(ignore, 'services/identity/src/main.ts')).toBe(false);
    expect(ignoredBy(ignore, '.gitignore')).toBe(false);
  });
});

describe('deploy/docker/Dockerfile', () => {
  it('builds on node:20-slim and runs on it', () => {
    expect(dockerfile.globalArgs.NODE_IMAGE).toBe('node:20-slim');
    expect(dockerfile.stages[0]!.from).toBe('${NODE_IMAGE}');
    expect(runtime.from).toBe('${NODE_IMAGE}');
  });

  it('installs with the pnpm version the root package.json pins, from the lockfile', () => {
    const pinned = (JSON.parse(read('package.json')).packageManager as string).split('@')[1];
    const arg = dockerfile.stages.flatMap((s) => s.instructions).find((i) => i.keyword === 'ARG' && i.args.startsWith('PNPM_VERSION='));
    expect(arg?.args).toBe(`PNPM_VERSION=${pinned}`);
    // Through scripts/pnpm.mjs, which gives pnpm its settings (the root has no `.npmrc`).
    const installs = runCommands.filter((run) => /pnpm(\.mjs)? install/.test(run));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install).toMatch(/node scripts\/pnpm\.mjs install --frozen-lockfile/);
    expect(runCommands).toContain('npm run build');
    expect(installs.some((install) => install.includes('--prod'))).toBe(true);
  });

  it('gives every process the environment npm start and npm run fleet give theirs', () => {
    // `ENV A=1 B=2`, one instruction or several.
    const env = Object.fromEntries(
      runtime.instructions
        .filter((i) => i.keyword === 'ENV')
        .flatMap((i) => i.args.split(' '))
        .map((pair) => pair.split('=') as [string, string]),
    );
    expect(Object.keys(PROCESS_ENV).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(PROCESS_ENV)) expect(env[name], name).toBe(value);
  });

  it('runs as a numeric non-root user', () => {
    const user = runtime.instructions.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(user!.split(':')[0]).not.toBe('0');
  });

  it('copies every process bundle, its package.json and the migrations into the runtime image', () => {
    const copies = runtimeCopies(runtime);
    for (const { name, entry } of fleetProcesses()) {
      const pkg = packageOf(entry);
      expect(copies.get(`prod-deps:${pkg}/dist`), `${name}: ${pkg}/dist`).toBe(`${pkg}/dist`);
      expect(copies.get(`prod-deps:${pkg}/package.json`), `${name}: ${pkg}/package.json`).toBe(`${pkg}/package.json`);
      if (isDirectory(`${pkg}/drizzle`)) expect(copies.get(`prod-deps:${pkg}/drizzle`), `${name}: ${pkg}/drizzle`).toBe(`${pkg}/drizzle`);
    }
    expect(copies.get('prod-deps:node_modules')).toBe('node_modules');
    expect(copies.get('prod-deps:package.json')).toBe('package.json');
  });

  it('puts the pack runner script next to the execution bundles', () => {
    expect(exists('services/execution/runner/runner.mjs')).toBe(true);
    expect(runtimeCopies(runtime).get('prod-deps:services/execution/runner')).toBe('services/execution/runner');
  });

  it('copies only files that exist from the build context', () => {
    const fromContext = [...runtimeCopies(runtime).keys()].filter((k) => k.startsWith('context:')).map((k) => k.slice('context:'.length));
    for (const path of fromContext) expect(exists(path), path).toBe(true);
  });

  it('has a default command that runs a bundle some package builds', () => {
    const cmd = execForm(runtime.instructions.filter((i) => i.keyword === 'CMD').at(-1)!);
    const entry = cmd.at(-1)!;
    expect(cmd[0]).toBe('node');
    expect(exists(sourceOf(entry)), sourceOf(entry)).toBe(true);
    expect(builds(packageOf(entry), entry)).toBe(true);
  });

  it('has every process of the fleet built from a source that exists', () => {
    for (const { name, entry } of fleetProcesses()) {
      expect(exists(sourceOf(entry)), `${name}: ${sourceOf(entry)}`).toBe(true);
      expect(builds(packageOf(entry), entry), `${name}: ${packageOf(entry)} builds ${entry}`).toBe(true);
    }
  });
});

describe('.dockerignore', () => {
  const ignore = read('.dockerignore');

  it('keeps local and generated files out of the build context', () => {
    for (const path of ['node_modules', 'services/identity/node_modules', 'gateway/dist', '.git', '.env', '.svc-data']) {
      expect(ignoredBy(ignore, path), path).toBe(true);
    }
  });

  it('keeps what the build needs', () => {
    const needed = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'scripts/pnpm.mjs', 'tsup.config.ts', 'tsconfig.base.json', 'deploy/docker/probe.mjs'];
    const workspaces = (read('pnpm-workspace.yaml').match(/^\s+- (.+)$/gm) ?? []).map((line) => line.replace(/^\s+- /, '').trim());
    for (const pattern of workspaces) needed.push(`${pattern.replace('/*', '/x')}/package.json`);
    for (const { entry } of fleetProcesses()) needed.push(sourceOf(entry), `${packageOf(entry)}/package.json`);
    needed.push('services/execution/runner/runner.mjs', 'services/identity/drizzle/meta/_journal.json');
    expect(needed.filter((path) => ignoredBy(ignore, path))).toEqual([]);
  });
});
