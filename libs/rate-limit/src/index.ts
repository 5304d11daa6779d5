export * from './limiter.js';
export * from './tiers.js';
export * from './command-quota.js';
