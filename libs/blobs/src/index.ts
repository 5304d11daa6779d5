export * from './blob-store.js';
export * from './create-blob-store.js';
export * from './file-system-blob-store.js';
export * from './s3-blob-store.js';
