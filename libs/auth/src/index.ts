export * from './identity.js';
export * from './internal-token.js';
export * from './access-token.js';
export * from './secret-key.js';
export * from './principal-entry.js';
export * from './tenant-access.js';
export * from './signed-token.js';
export * from './view-token.js';
