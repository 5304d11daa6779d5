export * from './identity.js';
export * from './events.js';
