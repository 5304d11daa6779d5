export * from './env.js';
export * from './infrastructure.js';
export * from './health.js';
export * from './http.js';
export * from './run-service.js';
export * from './idle-memory.js';
