import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exists, read, ROOT } from './repo.js';

/** Folders at the root of the repository: a path starting with one is read from the root. */
const TOP_LEVEL = ['gateway/', 'services/', 'libs/', 'tests-e2e/', 'deploy/', 'k8s/', 'cli/', 'bench/', 'scripts/'];

/** The READMEs the repository tracks. */
function readmes(): string[] {
  return execFileSync('git', ['ls-files', 'README.md', '*/README.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** The text of the section headed "Layout", up to the next heading of its level or above. */
function layoutOf(text: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^#{2,4} Layout\b/.test(line));
  if (start < 0) return undefined;
  const level = lines[start]!.indexOf(' ');
  const end = lines.findIndex((line, index) => index > start && /^#{1,6} /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** What a layout names as a path (with a `/`: a bare file name is a mention), placeholders (`<feature>`) left out. */
function pathsIn(section: string): string[] {
  return [...section.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!.replace(/[,.:;]+$/, ''))
    .filter((token) => /^[\w.-]+(\/[\w.-]*)+$/.test(token));
}

describe('the layouts the READMEs describe', () => {
  const documented = readmes().filter((readme) => layoutOf(read(readme)) !== undefined);

  it('are found where expected', () => {
    expect(documented).toEqual(expect.arrayContaining(['services/execution/README.md', 'services/storage/README.md', 'gateway/README.md']));
  });

  it.each(documented)('name only paths that exist (%s)', (readme) => {
    const folder = dirname(readme);
    const missing = pathsIn(layoutOf(read(readme))!).filter((path) => !exists(TOP_LEVEL.some((top) => path.startsWith(top)) ? path : join(folder, path)));
    expect(missing).toEqual([]);
  });
});
