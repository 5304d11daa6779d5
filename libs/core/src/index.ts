export * from './errors.js';
export * from './envelope.js';
export * from './correlation.js';
export * from './logger.js';
export * from './config.js';
export * from './validation.js';
export * from './http.js';
export * from './timeout.js';
