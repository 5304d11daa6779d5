import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from '../context.js';
import { authError } from '../errors.js';
import type { Tokens } from '@svc/client';
import { openInBrowser } from '../browser.js';

export interface BrowserLoginOptions {
  openBrowser: boolean;
  /** How long to wait for the sign-in. Default 5 minutes. */
  timeoutMs?: number;
}


const WAIT_MS = 5 * 60 * 1000;
const MAX_CALLBACK_BYTES = 16 * 1024;

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc</title></head><body style="font:16px system-ui,sans-serif;max-width:30rem;margin:4rem auto"><p>${message}</p></body></html>`);
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let body = '';
  for await (const chunk of req) {
    body += (chunk as Buffer).toString('utf8');
    if (body.length > MAX_CALLBACK_BYTES) return undefined;
  }
  return new URLSearchParams(body);
}

function sameState(given: string | null, expected: string): boolean {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/**
 * Signs in through the platform's sign-in page: a loopback server on 127.0.0.1 waits for the
 * page to post the tokens back with the one-time `state` made here; anything else is refused
 * and the wait goes on. The address is printed (stderr) in every case, and opened in a browser
 * on a terminal unless `--no-browser`.
 */
export async function browserLogin(ctx: Context, options: BrowserLoginOptions): Promise<Tokens> {
  const state = randomBytes(32).toString('base64url');
  let settle!: { resolve: (tokens: Tokens) => void; reject: (err: Error) => void };
  const handed = new Promise<Tokens>((resolve, reject) => (settle = { resolve, reject }));
  let used = false;

  const server = createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    // Only the page's form post to this very address; a DNS-rebound host name is refused.
    if (req.headers.host !== `127.0.0.1:${port}` || req.url !== '/callback') return reply(res, 404, 'Not found.');
    if (req.method !== 'POST') return reply(res, 405, 'This address only takes the sign-in page\'s answer.');
    formOf(req)
      .then((form) => {
        if (used || !form || !sameState(form.get('state'), state)) return reply(res, 400, 'This sign-in was not asked for by this terminal (its state does not match). Run <code>svc login</code> again.');
        const accessToken = form.get('access_token');
        if (!accessToken) return reply(res, 400, 'The sign-in page sent no token.');
        used = true;
        reply(res, 200, 'Signed in. You can close this tab and go back to the terminal.');
        const refreshExpiresAt = Number(form.get('refresh_expires_at'));
        settle.resolve({ accessToken, refreshToken: form.get('refresh_token') ?? undefined, refreshExpiresAt: refreshExpiresAt > 0 ? refreshExpiresAt : undefined });
      })
      .catch((err: Error) => settle.reject(err));
  });
  const closed = () => new Promise<void>((resolve) => server.close(() => resolve()));
  ctx.onExit(closed);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const { port } = server.address() as AddressInfo;
  const url = `${ctx.apiUrl}/cli/login?port=${port}&state=${state}`;
  ctx.io.stderr.write(`Sign in at ${url}\n`);
  if (options.openBrowser && ctx.interactive) {
    await openInBrowser(url).catch(() => ctx.out.warn('could not open a browser; open the address above yourself'));
  }
  const timer = setTimeout(() => settle.reject(authError('No sign-in arrived within 5 minutes; run `svc login` again', { code: 'LOGIN_TIMEOUT' })), options.timeoutMs ?? WAIT_MS);
  try {
    return await handed;
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    await closed();
  }
}
