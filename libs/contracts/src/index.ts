export * from './identity.js';
export * from './events.js';
export * from './accounts.js';
