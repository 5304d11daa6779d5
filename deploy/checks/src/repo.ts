import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

/** The repository root, whatever the working directory. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

export function exists(path: string): boolean {
  return existsSync(join(ROOT, path));
}

export function isDirectory(path: string): boolean {
  return exists(path) && statSync(join(ROOT, path)).isDirectory();
}

/** One YAML document (compose files use anchors and merge keys). */
export function readYaml(path: string): any {
  return parse(read(path), { merge: true });
}

/** Every document of a YAML file, failing on the first syntax error. */
export function readYamlDocuments(path: string): any[] {
  return parseAllDocuments(read(path), { merge: true }).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]!.message}`);
    return doc.toJS();
  }).filter((doc) => doc != null);
}

/** Files under a folder, as repository paths. */
export function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

export interface FleetProcess {
  name: string;
  /** The bundle it runs, e.g. `services/identity/dist/main.js`. */
  entry: string;
  /** Its HTTP port; none for workers. */
  port?: number;
}

/**
 * The processes `scripts/fleet.mjs` starts, read from its source: the `ports` table (one
 * `services/<name>/dist/main.js` each) and the literal `{ name, entry }` entries.
 */
export function fleetProcesses(): FleetProcess[] {
  const source = read('scripts/fleet.mjs');
  const services = [...source.matchAll(/^\s+([a-z-]+): process\.env\.SVC_[A-Z]+_PORT \?\? '(\d+)',$/gm)].map(([, name, port]) => ({
    name: name!,
    entry: `services/${name}/dist/main.js`,
    port: Number(port),
  }));
  const literal = [...source.matchAll(/\{ name: '([a-z-]+)', entry: '([^']+)', env: \{(.*)\} \}/g)].map(([, name, entry, env]) => {
    const port = /PORT: process\.env\.PORT \?\? '(\d+)'/.exec(env!)?.[1];
    return { name: name!, entry: entry!, ...(port ? { port: Number(port) } : {}) };
  });
  return [...services, ...literal];
}

/** Every variable the root README's configuration table documents. */
export function documentedVariables(): Set<string> {
  const readme = read('README.md');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  const names = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  return new Set(names);
}

/** `services/x/dist/main.js` → `services/x/src/main.ts`, the source tsup bundles into it. */
export function sourceOf(entry: string): string {
  return entry.replace(/\/dist\/([\w-]+)\.js$/, '/src/$1.ts');
}

/** `services/x/dist/main.js` → `services/x`. */
export function packageOf(entry: string): string {
  return entry.replace(/\/dist\/[\w-]+\.js$/, '');
}

/** True when the package's build script bundles `src/<name>.ts` (tsup's shared config builds `src/main.ts`). */
export function builds(pkg: string, entry: string): boolean {
  const script: string | undefined = JSON.parse(read(`${pkg}/package.json`)).scripts?.build;
  if (!script) return false;
  const source = sourceOf(entry).slice(pkg.length + 1);
  const explicit = script.split(/\s+/).filter((arg) => arg.startsWith('src/'));
  return explicit.length === 0 ? source === 'src/main.ts' : explicit.includes(source);
}
