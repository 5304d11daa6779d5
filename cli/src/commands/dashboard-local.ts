import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { DashboardTemplate } from '../choices.js';
import type { Context } from '../context.js';
import { problemLines, problemsMessage, validationError } from '../errors.js';
import { bundleTarball, buildDashboard, checkExports } from '../dashboard/build.js';
import { startDashboardDev } from '../dashboard/dev-server.js';
import { dashboardNameProblem, findDashboardDir, manifestFindings, MAX_BUNDLE_BYTES, MAX_BUNDLE_FILES, readDashboardManifest, type DashboardManifest } from '../dashboard/manifest.js';
import { dashboardTemplateFiles } from '../dashboard/templates.js';
import { listen } from '../dev/dev-server.js';
import type { Finding } from '../pack/check.js';
import { openInBrowser } from '../browser.js';
import { writeNewFolder } from '../scaffold.js';
import { defaultNamespace } from './pack-new.js';

export interface NewDashboardOptions {
  template: DashboardTemplate;
  namespace?: string;
  author?: string;
}

/** Writes a new dashboard into `dir`; shared by `dashboard new` and `project init/add-dashboard`. */
export async function scaffoldDashboard(ctx: Context, dir: string, name: string, options: NewDashboardOptions) {
  const problem = dashboardNameProblem(name);
  if (problem) throw validationError(`Dashboard name "${name}" ${problem}`, { code: 'NAME_INVALID', details: { name } });
  const namespace = await defaultNamespace(ctx, options.namespace);
  const files = await writeNewFolder(dir, dashboardTemplateFiles(options.template, { name, namespace, author: options.author }));
  return { path: dir, name, namespace, template: options.template, files };
}

export async function newDashboard(ctx: Context, name: string, options: NewDashboardOptions): Promise<void> {
  const dir = ctx.path(name);
  const made = await scaffoldDashboard(ctx, dir, name, options);
  const where = relative(ctx.io.cwd, dir) || '.';
  ctx.out.result(made, `Made the dashboard ${name} in ${where} (${options.template} template).\nNext: cd ${where} && svc dashboard dev`);
}

/** The manifest, or a validation error listing every problem of it. */
export async function checkedManifest(dir: string): Promise<{ manifest: DashboardManifest; findings: Finding[] }> {
  const raw = await readDashboardManifest(dir);
  const findings = manifestFindings(raw);
  const errors = findings.filter((finding) => finding.level === 'error');
  if (errors.length > 0) {
    throw validationError(problemsMessage('dashboard.json', errors), { code: errors[0]!.code, details: { issues: findings } });
  }
  return { manifest: raw as unknown as DashboardManifest, findings };
}

export async function dashboardBuild(ctx: Context, options: { output?: string; minify: boolean; sourcemap: boolean }): Promise<void> {
  const dir = await findDashboardDir(ctx.io.cwd);
  const { manifest } = await checkedManifest(dir);
  const outDir = resolve(dir, options.output ?? 'dist');
  const progress = ctx.out.progress(`Building ${manifest.name}`);
  const built = await buildDashboard(dir, outDir, options);
  progress.succeed(`Built ${relative(ctx.io.cwd, built.path)}`);
  ctx.out.result({ path: built.path, size_bytes: built.bytes, exports: built.exports, minify: options.minify, sourcemap: options.sourcemap }, `${built.path} (${built.bytes} bytes; exports ${built.exports.join(', ')})`);
}

/** Every check the spec lists for a dashboard before upload; returns the bundle it would upload. */
export async function validateDashboard(dir: string): Promise<{ manifest: DashboardManifest; findings: Finding[]; tarball: Buffer; files: number }> {
  const { manifest, findings } = await checkedManifest(dir);
  const main = join(dir, 'dist', 'main.js');
  const fail = (code: string, message: string) => validationError(message, { code, details: { issues: [...findings, { level: 'error', code, field: 'dist', message }] } });
  if (!existsSync(main)) throw fail('ENTRY_MISSING', 'dist/main.js is missing: run `svc dashboard build`');
  const missing = await checkExports(main);
  if (missing.length > 0) throw fail('EXPORTS_MISSING', `dist/main.js does not export ${missing.join(' and ')}`);
  const { tarball, files } = await bundleTarball(join(dir, 'dist'));
  if (files > MAX_BUNDLE_FILES) throw fail('PAYLOAD_TOO_LARGE', `The bundle has ${files} files; at most ${MAX_BUNDLE_FILES} are allowed`);
  if (tarball.length > MAX_BUNDLE_BYTES) throw fail('PAYLOAD_TOO_LARGE', `The bundle is ${tarball.length} bytes compressed; at most ${MAX_BUNDLE_BYTES} are allowed`);
  return { manifest, findings, tarball, files };
}

export async function validate(ctx: Context, path: string): Promise<void> {
  const dir = await findDashboardDir(ctx.path(path));
  const { manifest, findings, tarball, files } = await validateDashboard(dir);
  ctx.out.result(
    { valid: true, path: dir, name: manifest.name, namespace: manifest.namespace, version: manifest.version, files, size_bytes: tarball.length, warnings: findings },
    [...problemLines(findings), `${manifest.name} ${manifest.version}: valid, ${files} files, ${tarball.length} bytes compressed`].join('\n'),
  );
}

export async function dev(ctx: Context, options: { port: number; apiUrl?: string; open: boolean }): Promise<void> {
  const dir = await findDashboardDir(ctx.io.cwd);
  const { manifest } = await checkedManifest(dir);
  const log = (line: string) => (ctx.out.json ? ctx.out.debug(line) : ctx.io.stderr.write(`${line}\n`));
  const apiUrl = (options.apiUrl ?? ctx.apiUrl).replace(/\/+$/, '');
  const { server, build } = await startDashboardDev({ dir, manifest, apiUrl, token: ctx.token(), log });
  ctx.onExit(() => build.dispose());
  ctx.onExit(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = await listen(server, options.port, 'localhost');
  const url = `http://localhost:${address.port}/`;
  log(`Serving ${manifest.name} on ${url} (API: ${apiUrl}). Ctrl-C stops.`);
  if (options.open && ctx.interactive) await openInBrowser(url).catch(() => ctx.out.warn(`could not open a browser; visit ${url}`));
  ctx.out.result({ url, api_url: apiUrl });
  await new Promise<void>((resolve) => server.once('close', () => resolve()));
}
