import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exists, read, ROOT } from './repo.js';

describe('the package manager settings', () => {
  it('leaves npm nothing it does not know: no `.npmrc`, and `npm run` warns about no config', () => {
    expect(exists('.npmrc')).toBe(false);
    const listed = spawnSync('npm', ['run'], { cwd: ROOT, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    expect(listed.stderr).not.toMatch(/Unknown (project|env|user) config/);
  });

  it('gives pnpm a flat node_modules through scripts/pnpm.mjs, as the install made it', () => {
    const linker = execFileSync(process.execPath, [join(ROOT, 'scripts/pnpm.mjs'), 'config', 'get', 'node-linker'], { cwd: ROOT, encoding: 'utf8' });
    expect(linker.trim()).toBe('hoisted');
    expect(read('node_modules/.modules.yaml')).toMatch(/^nodeLinker: hoisted$/m);
  });
});
