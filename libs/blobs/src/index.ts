export * from './blob-store.js';
export * from './file-system-blob-store.js';
