/**
 * `@svc/client`: the svc platform's client for Node 20+ and browsers (no Node built-ins: fetch
 * and Web Crypto only). Types come from the platform's `/openapi.json` (`src/generated/openapi.ts`).
 */
export { createClient, dataOf, parseCommand, SvcClient, type ClientOptions, type RunOptions } from './client.js';
export {
  AuthenticationError,
  CommandError,
  ConflictError,
  errorOfResponse,
  GoneError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  SvcError,
  TaskFailedError,
  TimeoutError,
  ValidationError,
  type ErrorBody,
} from './errors.js';
export type { Exchange, Tokens } from './session.js';
export { isTerminal, type WaitOptions } from './tasks.js';
export type { RetryInfo } from './transport.js';
export * from './types.js';
export { verifyWebhook, type VerifyWebhookOptions } from './webhook.js';
export type { components, operations, paths } from './generated/openapi.js';
