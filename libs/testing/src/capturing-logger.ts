import { Writable } from 'node:stream';
import winston from 'winston';

/** Log entries as winston hands them to transports. */
export type LogEntry = winston.Logform.TransformableInfo & Record<string, unknown>;

/**
 * A real winston logger whose entries are kept in memory (in `entries` when given, so that
 * several loggers can share one list), for assertions on what a service logs (and on what it
 * must never log).
 *
 * @example
 *   const { logger, entries } = capturingLogger();
 *   logger.info('hello', { n: 1 });
 *   entries[0]; // { level: 'info', message: 'hello', n: 1 }
 */
export function capturingLogger(entries: LogEntry[] = []): { logger: winston.Logger; entries: LogEntry[] } {
  const stream = new Writable({
    objectMode: true,
    write(entry: LogEntry, _encoding, done) {
      entries.push(entry);
      done();
    },
  });
  return { logger: winston.createLogger({ level: 'debug', transports: [new winston.transports.Stream({ stream })] }), entries };
}
