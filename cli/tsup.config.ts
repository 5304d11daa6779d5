import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import processBundle from '../tsup.config.js';

const require = createRequire(import.meta.url);

/**
 * The CLI is bundled like every process (`dist/main.js`, the workspace's own packages inlined:
 * pack-sdk, execution's runner pool), so that `npm pack` gives a package whose runtime
 * dependencies are all on the npm registry. The pack runner's folder (its script, the sandbox's
 * root and seccomp filter) is copied beside it.
 */
export default defineConfig({
  ...(processBundle as Options),
  async onSuccess() {
    await cp(dirname(require.resolve('@svc/execution/runner/runner.mjs')), 'dist/runner', { recursive: true });
  },
});
