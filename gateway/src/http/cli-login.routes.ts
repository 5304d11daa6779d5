import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { ValidationError } from '@svc/core';

/** Where `svc login` sends the browser. */
export const CLI_LOGIN_PATH = '/cli/login';
/** The one-time value the CLI checks on the way back: URL-safe, 32-128 characters. */
export const CLI_LOGIN_STATE_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
/** The CLI listens on an unprivileged loopback port. */
export const CLI_LOGIN_MIN_PORT = 1024;

/** The values of a sign-in request, or the error naming the first bad one. */
function parseQuery(query: Record<string, unknown>): { port: number; state: string } {
  const { port, state } = query;
  if (typeof port !== 'string' || !/^\d{4,5}$/.test(port) || Number(port) < CLI_LOGIN_MIN_PORT || Number(port) > 65535) {
    throw new ValidationError(`port must be the CLI's loopback port, ${CLI_LOGIN_MIN_PORT}-65535`, { field: 'port' });
  }
  if (typeof state !== 'string' || !CLI_LOGIN_STATE_PATTERN.test(state)) throw new ValidationError('state must be 32-128 URL-safe characters', { field: 'state' });
  return { port: Number(port), state };
}

/**
 * The sign-in page: the person signs in with the platform's own login endpoint (same origin, its
 * per-address limit), then the page posts the tokens and the state it was given to the CLI on
 * `127.0.0.1:<port>` as a form (a navigation: no cross-origin read, nothing in the URL or history).
 * The port and state are embedded as JSON; the policy allows this one script and only that form target.
 * The sign-in is sent without credentials, so the browser keeps no `svc_refresh` cookie of it: the
 * session is the CLI's alone, renewed in the body. A cookie of the same session would let a later
 * cookie renewal in this browser rotate the refresh token under the CLI, whose next renewal would
 * then present a spent token and end the session as a stolen copy.
 */
function page(port: number, state: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to svc</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0}input{width:100%;padding:.4rem;font:inherit}button{padding:.5rem 1rem;font:inherit}#error{color:#b00020}</style>
</head><body>
<h1>Sign in to svc</h1>
<p>The command-line client on this computer asked to sign in. Only continue if you just ran <code>svc login</code>.</p>
<form id="login">
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button>Sign in</button>
<p id="error" role="alert"></p>
</form>
<form id="handoff" method="post" action="http://127.0.0.1:${port}/callback"></form>
<script nonce="${nonce}">
const state = ${JSON.stringify(state)};
document.getElementById('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const res = await fetch('/api/v1/auth/login', { method: 'POST', credentials: 'omit', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: form.get('email'), password: form.get('password') }) });
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    document.getElementById('error').textContent = body?.error?.message ?? 'Sign-in failed';
    return;
  }
  const handoff = document.getElementById('handoff');
  for (const [name, value] of Object.entries({ state, access_token: body.data.tokens.accessToken, refresh_token: body.data.tokens.refreshToken, refresh_expires_at: String(body.data.tokens.refreshExpiresAt ?? '') })) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    handoff.append(input);
  }
  handoff.submit();
});
</script>
</body></html>
`;
}

/** `GET /cli/login?port=&state=`: public, outside the route table like `/docs`. */
export function cliLoginRoutes(): Router {
  const router = Router();
  router.get(CLI_LOGIN_PATH, (req, res) => {
    // A bad port or state is thrown to the gateway's error handler: the JSON error body.
    const query = parseQuery(req.query as Record<string, unknown>);
    const nonce = randomBytes(16).toString('base64');
    res.set({
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action http://127.0.0.1:${query.port}; frame-ancestors 'none'; base-uri 'none'`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
    res.type('html').send(page(query.port, query.state, nonce));
  });
  return router;
}
