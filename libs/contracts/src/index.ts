export * from './identity.js';
export * from './events.js';
export * from './accounts.js';
export * from './registry.js';
export * from './version.js';
export * from './storage.js';
export * from './telemetry.js';
export * from './secrets.js';
