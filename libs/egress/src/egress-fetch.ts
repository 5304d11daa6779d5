import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { BlockList } from 'node:net';
import { GatewayTimeoutError, IntegrationError, ValidationError } from '@svc/core';
import { guardedLookup, refuseLiteral, refusedRemote } from './guarded-connect.js';

/** The answer is larger than the caller accepts (502 `EGRESS_RESPONSE_TOO_LARGE`). */
export class EgressResponseTooLargeError extends IntegrationError {
  constructor(limit: number) {
    super(`The response is larger than ${limit} bytes`, {}, { code: 'EGRESS_RESPONSE_TOO_LARGE' });
  }
}

/** No whole answer in time (504 `EGRESS_TIMEOUT`). */
export class EgressTimeoutError extends GatewayTimeoutError {
  constructor(host: string) {
    super(`No answer from ${host} in time`, {}, { code: 'EGRESS_TIMEOUT' });
  }
}

export interface EgressOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Whole request, connection to last byte. Default 10 s. */
  timeoutMs?: number;
  /** Largest response body read; more fails the request. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Private ranges an operator allows besides public addresses (`allowList`). */
  allowed?: BlockList;
  /**
   * Certificates (PEM) trusted for https besides the system's: an operator's own authority, or a
   * test's self-signed server. The address rules are the same.
   */
  ca?: string;
  signal?: AbortSignal;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8 text. */
  body: string;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Headers the platform sets itself: a caller cannot pick the host, the framing or a proxy's view of it. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'proxy-authorization', 'forwarded', 'x-forwarded-for']);

function target(raw: string, allowed: BlockList | undefined): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`"${raw.slice(0, 200)}" is not a URL`, { field: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('Only http and https URLs can be fetched', { field: 'url' });
  if (url.username || url.password) throw new ValidationError('URLs with credentials in them are not fetched; send an Authorization header', { field: 'url' });
  refuseLiteral(url.hostname, allowed);
  return url;
}

function readBody(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        response.destroy();
        reject(new EgressResponseTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}

/**
 * One HTTP(S) request on someone else's behalf (a pack's `ctx.fetch`, an outbound webhook),
 * allowed only to public addresses: literal IPs are checked before connecting, names where they
 * resolve, and the socket's remote address once connected. Redirects are not followed (the 3xx
 * comes back, and following it is another request, checked again). Bodies are text; the
 * response is capped.
 *
 * @example
 *   const { status, body } = await egressFetch('https://api.example.com/v1/things', { headers: { accept: 'application/json' } });
 */
export async function egressFetch(raw: string, options: EgressOptions = {}): Promise<EgressResponse> {
  const url = target(raw, options.allowed);
  const method = (options.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) throw new ValidationError(`Method ${method.slice(0, 20)} cannot be used`, { field: 'method' });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value !== 'string' || RESERVED_HEADERS.has(name.toLowerCase())) continue;
    headers[name] = value;
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<EgressResponse>((resolve, reject) => {
    const tls = url.protocol === 'https:' && options.ca ? { ca: [...rootCertificates, options.ca] } : {};
    const outgoing = request(url, { method, headers, lookup: guardedLookup(options.allowed), timeout: options.timeoutMs ?? 10_000, signal: options.signal, ...tls }, (response) => {
      readBody(response, options.maxResponseBytes ?? 1024 * 1024).then(
        (body) => resolve({ status: response.statusCode ?? 0, headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)])), body }),
        reject,
      );
    });
    outgoing.on('socket', (socket) => {
      socket.once('connect', () => {
        const refused = refusedRemote(socket, options.allowed);
        if (refused) outgoing.destroy(refused);
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new EgressTimeoutError(url.host)));
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
