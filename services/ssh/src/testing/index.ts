/** Helpers for the ssh service's tests and the e2e suite: `import { OpenSshServer } from '@svc/ssh/testing'`. */
export * from './openssh-server.js';
export * from './ssh2-server.js';
export * from './ssh-test-service.js';
export * from './secret-scan.js';
