export * from './families.js';
export * from './http.js';
