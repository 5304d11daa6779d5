import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { BuildOptions, Message, Plugin } from 'esbuild';
import { createPackArchive } from '@svc/pack-sdk';
import { CliError, validationError } from '../errors.js';

/** Where the dashboard's code starts, first found. */
export const ENTRY_CANDIDATES = ['src/main.ts', 'src/main.tsx', 'src/main.js', 'src/main.jsx'];
/** What the host calls: `mount(element, context)` when shown, `unmount(element)` when hidden. */
export const REQUIRED_EXPORTS = ['mount', 'unmount'];
/** The module `import css from 'svc:tailwind.css'` resolves to: the project's Tailwind output. */
export const TAILWIND_IMPORT = 'svc:tailwind.css';
const TAILWIND_CONFIG = 'tailwind.config.js';

/** esbuild, loaded by the dashboard commands only (it is a good part of the client's start-up time). */
export async function esbuild() {
  return import('esbuild');
}

export async function findEntry(dir: string): Promise<string> {
  const entry = ENTRY_CANDIDATES.find((candidate) => existsSync(join(dir, candidate)));
  if (!entry) throw validationError(`No entry module in ${dir}: expected one of ${ENTRY_CANDIDATES.join(', ')}`, { code: 'ENTRY_MISSING' });
  return join(dir, entry);
}

function buildFailure(messages: Message[]): CliError {
  const lines = messages.map((m) => `${m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : ''}${m.text}`);
  return validationError(`The dashboard does not build:\n  ${lines.join('\n  ')}`, { code: 'BUILD_FAILED', details: { errors: lines } });
}

/** Runs the project's own Tailwind CLI (its dev dependency) into `.svc/tailwind.css`. */
async function compileTailwind(dir: string): Promise<string> {
  const bin = join(dir, 'node_modules', '.bin', 'tailwindcss');
  if (!existsSync(bin)) {
    throw validationError(`${TAILWIND_CONFIG} asks for Tailwind, which is not installed in ${dir}: run \`npm install\` there (tailwindcss is a dev dependency of the template)`, { code: 'TAILWIND_MISSING' });
  }
  const out = join(dir, '.svc', 'tailwind.css');
  await mkdir(join(dir, '.svc'), { recursive: true });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bin, ['-i', join(dir, 'src', 'styles.css'), '-o', out, '--minify'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(validationError(`tailwindcss failed: ${errors.trim()}`, { code: 'BUILD_FAILED' }))));
  });
  return out;
}

/** Compiles the project's Tailwind CSS before each build (when it has a config) and resolves `svc:tailwind.css` to it. */
function tailwindPlugin(dir: string): Plugin {
  const wanted = existsSync(join(dir, TAILWIND_CONFIG));
  let compiled: string | undefined;
  return {
    name: 'svc-tailwind',
    setup(pluginBuild) {
      pluginBuild.onStart(async () => {
        if (!wanted) return undefined;
        try {
          compiled = await compileTailwind(dir);
          return undefined;
        } catch (err) {
          return { errors: [{ text: (err as Error).message }] };
        }
      });
      pluginBuild.onResolve({ filter: /^svc:tailwind\.css$/ }, () => (compiled ? { path: compiled } : { errors: [{ text: `${TAILWIND_IMPORT} needs ${TAILWIND_CONFIG} and Tailwind installed` }] }));
    },
  };
}

/** esbuild settings of a dashboard: one ES module for browsers, CSS and images inlined, nothing left outside. */
export function dashboardBuildOptions(dir: string, entry: string, options: { minify: boolean; sourcemap: boolean }): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: options.minify,
    // Inline, so that the bundle stays one file.
    sourcemap: options.sourcemap ? 'inline' : false,
    loader: { '.css': 'text', '.svg': 'dataurl', '.png': 'dataurl', '.jpg': 'dataurl', '.gif': 'dataurl', '.woff2': 'dataurl', '.json': 'json' },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [tailwindPlugin(dir)],
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: dir,
  };
}

function missingExports(exports: string[]): string[] {
  return REQUIRED_EXPORTS.filter((name) => !exports.includes(name));
}

export interface BuiltDashboard {
  path: string;
  bytes: number;
  exports: string[];
}

/** Bundles the dashboard into `outDir/main.js`; it must export `mount` and `unmount`. */
export async function buildDashboard(dir: string, outDir: string, options: { minify: boolean; sourcemap: boolean }): Promise<BuiltDashboard> {
  const entry = await findEntry(dir);
  const outfile = join(outDir, 'main.js');
  let result;
  try {
    result = await (await esbuild()).build({ ...dashboardBuildOptions(dir, entry, options), outfile });
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw buildFailure((err as { errors?: Message[] }).errors ?? [{ text: (err as Error).message } as Message]);
  }
  const output = Object.entries(result.metafile!.outputs).find(([path]) => path.endsWith('main.js'))?.[1];
  const exports = output?.exports ?? [];
  const missing = missingExports(exports);
  if (missing.length > 0) throw validationError(`${relative(dir, entry)} must export ${missing.join(' and ')} (the host calls mount(element, context) and unmount(element))`, { code: 'EXPORTS_MISSING', details: { missing } });
  return { path: outfile, bytes: (await stat(outfile)).size, exports };
}

/** The names a built ES module exports, read by esbuild without running it. */
export async function moduleExports(file: string): Promise<string[]> {
  try {
    const result = await (await esbuild()).build({ entryPoints: [file], bundle: false, write: false, format: 'esm', metafile: true, logLevel: 'silent' });
    return Object.values(result.metafile.outputs)[0]?.exports ?? [];
  } catch (err) {
    throw buildFailure((err as { errors?: Message[] }).errors ?? []);
  }
}

export async function checkExports(file: string): Promise<string[]> {
  return missingExports(await moduleExports(file));
}

/** The files of a built bundle folder by relative path, as they will be uploaded. */
export async function bundleFiles(distDir: string): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files[relative(distDir, full).split(sep).join('/')] = await readFile(full);
    }
  }
  await walk(distDir);
  return files;
}

/** The bundle as the dashboards service takes it: a .tar.gz of the built folder, main.js at its root. */
export async function bundleTarball(distDir: string): Promise<{ tarball: Buffer; files: number }> {
  const files = await bundleFiles(distDir);
  return { tarball: await createPackArchive(files), files: Object.keys(files).length };
}
