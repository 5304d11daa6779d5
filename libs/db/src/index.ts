export * from './database.js';
export * from './scratch.js';
export * from './unique-violation.js';
export * from './connection-failure.js';
export * from './statement-batcher.js';
export * from './outbox-tables.js';
export * from './outbox.js';
export * from './roles.js';
