import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import type { Identity, Membership } from '@svc/auth';
import { escapeHtml } from '@svc/contracts';

/** Where the consent page's forms post. */
export const CONSENT_PATH = '/oauth/consent';

/** What every step of the page shows: which application asks, and where the answer goes. */
export interface ConsentRequestView {
  /** The signed authorization request the forms carry back. */
  request: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  error?: string;
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0}input,select{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}button{padding:.5rem 1rem;font:inherit;margin-right:.5rem}.error{color:#b00020}.host{font-family:monospace}';

function layout(title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head><body>
${body}
</body></html>
`;
}

/**
 * Who asks: the name a client gives itself proves nothing, so a client that identifies itself by
 * a metadata document is also shown the host that document is served from (which it cannot fake).
 */
function asking(view: ConsentRequestView): string {
  const host = new URL(view.redirectUri).host;
  const from = URL.canParse(view.clientId) ? ` (described by <span class="host">${escapeHtml(new URL(view.clientId).host)}</span>)` : '';
  return `<p><strong>${escapeHtml(view.clientName)}</strong>${from} asks to run commands on svc for you. If you approve, it is sent back to <span class="host">${escapeHtml(host)}</span>.</p>
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ''}`;
}

function signInBody(view: ConsentRequestView): string {
  return `<h1>Sign in to svc</h1>
${asking(view)}
<form method="post" action="${CONSENT_PATH}">
<input type="hidden" name="action" value="sign-in">
<input type="hidden" name="request" value="${escapeHtml(view.request)}">
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button>Sign in</button>
</form>`;
}

function tenantOption(m: Membership): string {
  const kind = m.kind === 'personal' ? 'personal' : `organization, ${m.role}`;
  return `<option value="${escapeHtml(m.tenantId)}">${escapeHtml(m.slug)} (${escapeHtml(kind)})</option>`;
}

function consentBody(view: ConsentRequestView, identity: Identity, formToken: string): string {
  return `<h1>Authorize ${escapeHtml(view.clientName)}</h1>
${asking(view)}
<p>Signed in as ${escapeHtml(identity.email)}. It will be able to list and run the commands the tenant you choose may run (scope <code>commands:execute</code>), until you revoke it.</p>
<form method="post" action="${CONSENT_PATH}">
<input type="hidden" name="request" value="${escapeHtml(view.request)}">
<input type="hidden" name="csrf" value="${escapeHtml(formToken)}">
<label>Tenant <select name="tenant_id">${identity.memberships.map(tenantOption).join('')}</select></label>
<button name="action" value="approve">Approve</button>
<button name="action" value="deny">Deny</button>
</form>`;
}

/**
 * Sends a step of the consent page under its own policy (a service's header wins over the
 * gateway's): no script at all, this one style block, forms posting to the page itself, and
 * the redirect after a decision allowed to the client's redirect URI (browsers hold a form's
 * redirect to `form-action`). Never framed, cached or referred.
 */
function send(res: Response, status: number, redirectUri: string | undefined, html: (nonce: string) => string): void {
  const nonce = randomBytes(16).toString('base64');
  const formAction = ["'self'", ...(redirectUri ? [new URL(redirectUri).origin] : [])].join(' ');
  res.set({
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  });
  res.status(status).type('html').send(html(nonce));
}

export function sendSignIn(res: Response, view: ConsentRequestView, status = 200): void {
  send(res, status, undefined, (nonce) => layout('Sign in to svc', nonce, signInBody(view)));
}

export function sendConsent(res: Response, view: ConsentRequestView, identity: Identity, formToken: string, status = 200): void {
  send(res, status, view.redirectUri, (nonce) => layout(`Authorize ${view.clientName}`, nonce, consentBody(view, identity, formToken)));
}

/** A request the page cannot go on with (expired, altered): nowhere to send the user back to but the application. */
export function sendProblem(res: Response, status: number, message: string): void {
  send(res, status, undefined, (nonce) => layout('svc', nonce, `<h1>This request cannot go on</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`));
}
