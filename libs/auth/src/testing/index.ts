/** Helpers for tests and benchmarks of other packages: `import { personalIdentity } from '@svc/auth/testing'`. */
export { personalIdentity } from './identities.js';
