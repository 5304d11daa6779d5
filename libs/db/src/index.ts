export * from './database.js';
export * from './scratch.js';
