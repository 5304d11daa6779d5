import winston from 'winston';
import { currentCorrelationId } from './correlation.js';

export type Logger = winston.Logger;

const correlation = winston.format((info) => {
  const id = currentCorrelationId();
  if (id && info.correlation_id === undefined) info.correlation_id = id;
  return info;
});

/**
 * JSON lines on stdout, each carrying the service name and the correlation id of the
 * request or message being handled.
 *
 * @example
 *   const log = createLogger({ service: 'identity', level: 'info' });
 *   log.info('user registered', { user_id });
 */
export function createLogger(options: { service: string; level?: string; silent?: boolean; stream?: NodeJS.WritableStream }): Logger {
  return winston.createLogger({
    level: options.level ?? 'info',
    silent: options.silent ?? false,
    defaultMeta: { service: options.service },
    format: winston.format.combine(correlation(), winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
    // A stream in place of stdout: tests that read what was logged.
    transports: [options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console()],
  });
}
