import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './repo.js';

/** The source maps of every process bundle `npm run build` made (the CLI's too). */
function processMaps(): string[] {
  const folders = ['gateway', 'cli', 'deploy/standalone', 'deploy/migrate', ...readdirSync(join(ROOT, 'services')).map((name) => `services/${name}`)];
  return folders.flatMap((folder) => {
    const dist = join(ROOT, folder, 'dist');
    return readdirSync(dist)
      .filter((file) => file.endsWith('.js.map'))
      .map((file) => join(dist, file));
  });
}

describe('the source maps of the process bundles', () => {
  it('map positions of the bundle to the TypeScript sources, and hold no copy of the sources', () => {
    const maps = processMaps();
    expect(maps.map((path) => path.slice(ROOT.length))).toEqual(expect.arrayContaining(['gateway/dist/main.js.map', 'deploy/standalone/dist/main.js.map']));
    for (const path of maps) {
      const payload = JSON.parse(readFileSync(path, 'utf8')) as SourceMapPayload & { sourcesContent?: unknown };
      expect(payload.sourcesContent, path).toBeUndefined();
      if (!payload.sources.some((source) => source.endsWith('.ts'))) continue;
      const map = new SourceMap(payload);
      // The first line of the bundle that a stack trace would name a TypeScript file for.
      const mapped = readFileSync(path.replace(/\.map$/, ''), 'utf8')
        .split('\n')
        .map((text, line) => (text.trim() ? map.findEntry(line, text.search(/\S/)) : {}))
        .find((entry) => 'originalSource' in entry && String(entry.originalSource).endsWith('.ts'));
      expect(mapped, path).toBeDefined();
    }
  });
});
