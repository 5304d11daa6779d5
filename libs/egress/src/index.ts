export * from './address-guard.js';
export * from './guarded-connect.js';
export * from './egress-fetch.js';
