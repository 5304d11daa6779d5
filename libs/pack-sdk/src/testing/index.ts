/** Helpers for tests of other packages: `import { packageOf, type TestPack } from '@svc/pack-sdk/testing'`. */
export { filesOf, packageOf, type TestCommand, type TestPack } from './packs.js';
export { tarballByGnuTar, tarballByNpmPack } from './archivers.js';
