export * from './receiver.js';
