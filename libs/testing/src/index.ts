export * from './free-port.js';
export * from './tcp-proxy.js';
export * from './smtp-server.js';
export * from './data-dir.js';
export * from './fake-stripe.js';
export * from './capturing-logger.js';
export * from './s3-server.js';
export * from './otlp-receiver.js';
