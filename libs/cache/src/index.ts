export * from './cache.js';
export * from './tracked-reads.js';
