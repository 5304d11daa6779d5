export * from './free-port.js';
export * from './tcp-proxy.js';
