import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CliError, validationError } from './errors.js';

/** Refuses to write into a folder that already holds something. */
export async function requireEmptyFolder(dir: string): Promise<void> {
  try {
    if ((await readdir(dir)).length > 0) throw validationError(`${dir} already exists and is not empty`, { code: 'ALREADY_EXISTS', details: { path: dir } });
  } catch (err) {
    if (err instanceof CliError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Writes files by relative path under `dir` (an empty or new folder); returns their paths, sorted. */
export async function writeNewFolder(dir: string, files: Record<string, string>): Promise<string[]> {
  await requireEmptyFolder(dir);
  return writeFiles(dir, files);
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<string[]> {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  return Object.keys(files).sort();
}

/** The package.json of a new pack or dashboard: ES modules, its `svc` scripts, the author if given. */
export function packageJsonText(input: { name: string; author: string | undefined; scripts: Record<string, string>; devDependencies?: Record<string, string> }): string {
  const value: Record<string, unknown> = { name: input.name, version: '0.1.0', private: true, type: 'module', scripts: input.scripts };
  if (input.author) value.author = input.author;
  if (input.devDependencies) value.devDependencies = input.devDependencies;
  return `${JSON.stringify(value, null, 2)}\n`;
}
