export * from './limiter.js';
export * from './tiers.js';
export * from './command-quota.js';
export * from './headers.js';
