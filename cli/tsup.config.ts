import { execFile } from 'node:child_process';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { defineConfig, type Options } from 'tsup';
import processBundle from '../tsup.config.js';

const require = createRequire(import.meta.url);
/** Where the package is made, relative to `cli/`; the gateway reads it there (`gateway/src/http/cli-package.routes.ts`). */
const CLI_PACKAGE_DIR = 'dist-package';
const CLI_PACKAGE_FILE = 'svc-cli.tgz';

/**
 * The CLI is bundled like every process (`dist/main.js`, the workspace's own packages inlined:
 * pack-sdk, execution's runner pool), so that `npm pack` gives a package whose runtime
 * dependencies are all on the npm registry. The pack runner's folder (its script, the sandbox's
 * root and seccomp filter) is copied beside it. Then the package itself is made, as `npm pack`
 * makes it, into `dist-package/svc-cli.tgz`: the gateway serves that file, so that
 * `npm install -g <platform>/cli/svc-cli.tgz` installs the CLI the platform was built with.
 */
export default defineConfig({
  ...(processBundle as Options),
  async onSuccess() {
    await cp(dirname(require.resolve('@svc/execution/runner/runner.mjs')), 'dist/runner', { recursive: true });
    await rm(CLI_PACKAGE_DIR, { recursive: true, force: true });
    await mkdir(CLI_PACKAGE_DIR, { recursive: true });
    const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', CLI_PACKAGE_DIR], { encoding: 'utf8' });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
    await rename(join(CLI_PACKAGE_DIR, packed!.filename), join(CLI_PACKAGE_DIR, CLI_PACKAGE_FILE));
  },
});
