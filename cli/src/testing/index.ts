export * from './run-cli.js';
