export * from './cache.js';
