import winston from 'winston';
import { currentCorrelationId } from './correlation.js';

export type Logger = winston.Logger;

const correlation = winston.format((info) => {
  const id = currentCorrelationId();
  if (id && info.correlation_id === undefined) info.correlation_id = id;
  return info;
});

/**
 * winston drops an entry of a level it does not log only at the end of its stream, after building
 * the entry and writing it through the stream's machinery: a `debug` call per run cost the
 * standalone's request thread 1.1 % of its time at level `info` (BENCHMARKS.md, eighteenth round).
 * Here a call of a level not logged, or on a silent logger, returns before any of that. The check
 * is made at each call, so a level changed later (`log.level = 'debug'`) takes effect, on the
 * logger's children too.
 */
function skipLevelsNotLogged(logger: Logger): Logger {
  for (const level of Object.keys(logger.levels)) {
    const write = (logger as unknown as Record<string, (...args: unknown[]) => Logger>)[level]!;
    Object.defineProperty(logger, level, {
      value(this: Logger, ...args: unknown[]): Logger {
        return this.silent || !this.isLevelEnabled(level) ? this : write.apply(this, args);
      },
      writable: true,
      configurable: true,
    });
  }
  return logger;
}

/**
 * JSON lines on stdout, each carrying the service name and the correlation id of the
 * request or message being handled.
 *
 * @example
 *   const log = createLogger({ service: 'identity', level: 'info' });
 *   log.info('user registered', { user_id });
 */
export function createLogger(options: { service: string; level?: string; silent?: boolean; stream?: NodeJS.WritableStream }): Logger {
  return skipLevelsNotLogged(
    winston.createLogger({
      level: options.level ?? 'info',
      silent: options.silent ?? false,
      defaultMeta: { service: options.service },
      format: winston.format.combine(correlation(), winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
      // A stream in place of stdout: tests that read what was logged.
      transports: [options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console()],
    }),
  );
}
