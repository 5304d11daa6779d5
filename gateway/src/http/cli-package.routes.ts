import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';
import { NotFoundError } from '@svc/core';

/** Where the gateway serves the CLI's npm package: `npm install -g <platform>/cli/svc-cli.tgz`. */
export const CLI_PACKAGE_PATH = '/cli/svc-cli.tgz';

/**
 * The package `npm run build` made of `cli/` (`cli/dist-package/svc-cli.tgz`, see
 * `cli/tsup.config.ts`), found through the workspace's `@svc/cli`; undefined when this install
 * has none (a gateway deployed without the CLI, unless `SVC_CLI_PACKAGE` names the file).
 */
export function builtCliPackage(): string | undefined {
  try {
    const file = join(dirname(createRequire(import.meta.url).resolve('@svc/cli/package.json')), 'dist-package', 'svc-cli.tgz');
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /cli/svc-cli.tgz`: public, outside the route table like `/docs`. The file is the one
 * built with this platform, so the `svc` it installs has the platform's version; answers carry
 * an ETag and must be revalidated, since a new build replaces the file under the same name.
 */
export function cliPackageRoutes(file: string | undefined, version: string): Router {
  const router = Router();
  router.get(CLI_PACKAGE_PATH, (_req, res, next) => {
    if (!file || !existsSync(file)) return next(new NotFoundError('This platform was deployed without the CLI package (`npm run build` makes it; SVC_CLI_PACKAGE names it)'));
    res.sendFile(file, {
      headers: { 'Content-Type': 'application/gzip', 'Content-Disposition': `attachment; filename="svc-cli-${version}.tgz"`, 'Cache-Control': 'no-cache' },
    });
  });
  return router;
}
