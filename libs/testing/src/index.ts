export * from './tcp-proxy.js';
