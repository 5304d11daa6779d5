export * from './address-guard.js';
export * from './egress-fetch.js';
