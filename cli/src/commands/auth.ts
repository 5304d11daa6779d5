import { dataOf, errorOfResponse, type SvcClient, type Tokens } from '@svc/client';
import type { Command } from 'commander';
import { maskSecret, SESSION_KEYS } from '../config.js';
import type { Context } from '../context.js';
import { asCliError, authError, CliError } from '../errors.js';
import { action, booleanOption } from '../program.js';
import { accessTokenExpiry, API_KEY_PREFIX, clockTime, fromNow, isJwt, isRefreshToken } from '../session.js';
import { browserLogin } from './browser-login.js';

export type TokenKind = 'access_token' | 'api_key';

export interface Me {
  id: string;
  email: string;
  name?: string;
  developerMode: boolean;
  subscriptionTier?: string;
  tenantSlug?: string;
  tenantId?: string;
}

/** The kind of a token; one that is neither is an authentication failure (exit 2), as a token the platform refuses is. */
export function kindOf(token: string): TokenKind {
  if (token.startsWith(API_KEY_PREFIX)) return 'api_key';
  if (isJwt(token)) return 'access_token';
  throw authError('The token is neither an access token (a JWT) nor an API key (sk-svc-…): run `svc login` (or set SVC_TOKEN to one)', { code: 'TOKEN_INVALID' });
}

/** Who a token belongs to: `/auth/me` for an access token; an API key is only checked against the catalog. */
export async function whoIs(svc: SvcClient, kind: TokenKind): Promise<Me | null> {
  if (kind === 'api_key') {
    await dataOf(svc.api.GET('/api/v1/commands', { params: { query: { limit: 1 } } }));
    return null;
  }
  return (await svc.me()) as Me;
}

/** The platform's `/health`, unhealthy (503) as well as healthy. */
export async function platformHealth(ctx: Context): Promise<{ status?: string; version?: string }> {
  const { data, error, response } = await ctx.publicClient().api.GET('/health');
  if (response.ok) return data ?? {};
  if (response.status === 503) return error as { status?: string; version?: string };
  throw errorOfResponse(response, error, 'GET /health');
}

/** What `--token` was given: a refresh token is spent at once for a session of its own. */
async function tokensOf(ctx: Context, given: string): Promise<Tokens> {
  if (!isRefreshToken(given)) return { accessToken: given };
  const call = ctx.publicClient().api.POST('/api/v1/auth/refresh', { body: { refreshToken: given } });
  if ((await call).response.status === 401) throw authError('The platform refused this refresh token (spent, expired or revoked): sign in again with `svc login`', { code: 'TOKEN_INVALID' });
  return dataOf(call);
}

/** How long a new sign-in lasts, in words: a session renews itself; a bare access token does not. */
function lifetimeOf(kind: TokenKind, tokens: Tokens): { expires_at: string | null; renews: boolean; text: string } {
  if (kind === 'api_key') return { expires_at: null, renews: false, text: 'An API key lasts until it is revoked.' };
  if (tokens.refreshToken) {
    const until = tokens.refreshExpiresAt;
    return {
      expires_at: until ? new Date(until).toISOString() : null,
      renews: true,
      text: `The session renews itself while you use it${until ? `; unused, it ends ${fromNow(until)} (${clockTime(until)})` : ''}.`,
    };
  }
  const expiry = accessTokenExpiry(tokens.accessToken);
  return {
    expires_at: expiry ? new Date(expiry).toISOString() : null,
    renews: false,
    text: `This access token ends ${expiry ? `${fromNow(expiry)} (${clockTime(expiry)})` : 'when the platform says'} and cannot be renewed: for a session that lasts, run \`svc login\` (browser) or \`svc login --token <refresh token>\`.`,
  };
}

async function login(ctx: Context, options: { token?: string; browser: boolean }): Promise<void> {
  const tokens: Tokens = options.token ? await tokensOf(ctx, options.token.trim()) : await browserLogin(ctx, { openBrowser: options.browser });
  const kind = kindOf(tokens.accessToken);
  const me = await whoIs(ctx.client(ctx.apiUrl, tokens.accessToken), kind);
  if (ctx.config.entry('auth.token').source === 'env') ctx.out.warn('SVC_TOKEN is set and is used instead of the token saved now');
  await ctx.saveSession(tokens);
  const who = me ? `${me.email} (${me.tenantSlug ?? me.id})` : `an API key (${tokens.accessToken.slice(0, 14)}…)`;
  const lifetime = lifetimeOf(kind, tokens);
  ctx.out.result(
    { signed_in: true, token_kind: kind, user: me, api_url: ctx.apiUrl, config_path: ctx.config.path, refreshable: lifetime.renews, expires_at: lifetime.expires_at },
    `Signed in to ${ctx.apiUrl} as ${who}.\n${lifetime.text}\nSaved in ${ctx.config.path}.`,
  );
}

/** Revokes the API key `svc mcp` made (found by its display prefix); false when the platform has no live key of that prefix. */
async function revokeCliApiKey(svc: SvcClient, key: string): Promise<boolean> {
  const keys = (await dataOf(svc.api.GET('/api/v1/account/api-keys'))) as Array<{ id: string; key_prefix: string; revoked_at: string | null }>;
  const mine = keys.find((candidate) => !candidate.revoked_at && key.startsWith(candidate.key_prefix));
  if (!mine) return false;
  await dataOf(svc.api.DELETE('/api/v1/account/api-keys/{key_id}', { params: { path: { key_id: mine.id } } }));
  return true;
}

/**
 * Revokes what this CLI made on the platform (its MCP key, then its session), renewing an
 * expired access token first, and forgets the tokens in any case. What could not be revoked is
 * said, with how to do it by hand.
 */
async function logout(ctx: Context): Promise<void> {
  const token = ctx.config.fileValue('auth.token');
  const apiKey = ctx.config.fileValue('auth.api_key');
  const revoked = { session_revoked: false, api_key_revoked: false };
  const failures: Array<{ what: string; reason: string }> = [];
  if (typeof token === 'string' && isJwt(token)) {
    // The stored session, renewed when its access token has lapsed (SVC_TOKEN is not what the CLI made).
    const svc = ctx.config.entry('auth.token').source === 'env' ? ctx.client(ctx.apiUrl, token) : ctx.client();
    const attempt = async (what: keyof typeof revoked, label: string, work: () => Promise<boolean>) => {
      try {
        revoked[what] = await work();
      } catch (err) {
        failures.push({ what: label, reason: asCliError(err).message });
      }
    };
    if (typeof apiKey === 'string') await attempt('api_key_revoked', `the MCP API key ${apiKey.slice(0, 15)}…`, () => revokeCliApiKey(svc, apiKey));
    await attempt('session_revoked', 'the session', async () => (await svc.signOut(), true));
  } else if (typeof apiKey === 'string') {
    failures.push({ what: `the MCP API key ${apiKey.slice(0, 15)}…`, reason: 'no session to revoke it with' });
  }
  const hadToken = token !== undefined;
  for (const key of [...SESSION_KEYS, 'auth.api_key'] as const) ctx.config.set(key, undefined);
  await ctx.config.save();
  const lines = [hadToken ? 'Signed out.' : 'Was not signed in.'];
  for (const failure of failures) lines.push(`warning: could not revoke ${failure.what} (${failure.reason}); revoke it in your account (\`GET/DELETE /api/v1/account/api-keys\`) or by changing your password`);
  ctx.out.result({ signed_out: hadToken, ...revoked, not_revoked: failures }, lines.join('\n'));
}

/** When the stored sign-in ends: the session's end when it renews, else the access token's; null for an API key. */
function sessionOf(ctx: Context, kind: TokenKind) {
  const token = ctx.token()!;
  const renews = kind === 'access_token' && Boolean(ctx.config.string('auth.refresh_token')) && ctx.config.entry('auth.token').source !== 'env';
  const accessExpiry = kind === 'access_token' ? accessTokenExpiry(token) : undefined;
  const sessionEnd = renews ? ctx.config.string('auth.session_expires_at') : undefined;
  const until = sessionEnd ?? (accessExpiry && !renews ? new Date(accessExpiry).toISOString() : null);
  return { renews, access_token_expires_at: accessExpiry ? new Date(accessExpiry).toISOString() : null, until };
}

function signedInLine(user: Me | null, session: ReturnType<typeof sessionOf>): string {
  if (!user) return 'Signed in with an API key (it lasts until it is revoked)';
  const who = `Signed in as ${user.email}, tenant ${user.tenantSlug ?? user.id}, tier ${user.subscriptionTier ?? 'unknown'}, ${user.developerMode ? 'developer' : 'consumer'} mode`;
  if (!session.until) return who;
  const until = Date.parse(session.until);
  return `${who}\n${session.renews ? `Session renews while used; unused, it ends ${fromNow(until)} (${clockTime(until)})` : `Until ${clockTime(until)} (${fromNow(until)}); this access token cannot be renewed: run \`svc login\``}`;
}

async function status(ctx: Context): Promise<void> {
  const health = await platformHealth(ctx);
  const token = ctx.token();
  const auth: Record<string, unknown> = { signed_in: false, token_kind: null, source: ctx.config.entry('auth.token').source, user: null, session: null };
  let failure: CliError | undefined;
  if (token) {
    try {
      const kind = kindOf(token);
      auth.token_kind = kind;
      auth.user = await whoIs(ctx.client(), kind);
      // Read after the call above, which may have renewed the session.
      auth.token = maskSecret(ctx.token()!);
      auth.session = sessionOf(ctx, kind);
      auth.signed_in = true;
    } catch (err) {
      failure = asCliError(err);
      auth.error = failure.message;
    }
  }
  const data = {
    cli_version: ctx.version,
    config_path: ctx.config.path,
    api_url: ctx.apiUrl,
    registry_url: ctx.registryUrl,
    platform: { status: health.status ?? 'unknown', version: health.version ?? null },
    auth,
  };
  const lines = [
    `svc ${ctx.version}`,
    `Platform: ${ctx.apiUrl} (${data.platform.status}${data.platform.version ? `, version ${data.platform.version}` : ''})`,
    auth.signed_in ? signedInLine(auth.user as Me | null, auth.session as ReturnType<typeof sessionOf>) : token ? `Token rejected: ${String(auth.error)}` : 'Not signed in (run `svc login`)',
    `Config: ${ctx.config.path}`,
  ];
  ctx.out.result(data, lines.join('\n'));
  // A stored token the platform refuses, or that is no token at all, is worth a non-zero exit; simply not being signed in is not.
  if (failure?.code === 'TOKEN_INVALID') throw authError(failure.message, { code: failure.code, details: data });
  if (failure?.kind === 'auth') throw authError(`The stored token was refused: ${failure.message}`, { code: failure.code, details: data });
  if (failure) throw failure;
}

export function registerAuthCommands(program: Command): void {
  program
    .command('login')
    .description('sign in: in the browser (default), or with --token (an access token or an API key)')
    .option('--token <token>', 'sign in with this token instead of the browser: a refresh token (a session that renews itself), an access token (lasts its 15 minutes) or an API key')
    .option('--browser [open]', 'open the sign-in page in a browser (true); false prints its address instead', booleanOption('--browser'), true)
    .option('--no-browser', 'do not open a browser; print the sign-in address')
    .action(action<{ token?: string; browser: boolean }>((ctx, _args, options) => login(ctx, options)));

  program
    .command('logout')
    .description('sign out: revoke the session and the MCP key this CLI made (renewing first if needed), and remove the stored tokens')
    .action(action((ctx) => logout(ctx)));

  program
    .command('status')
    .description('the platform, its version, who you are signed in as (tenant, tier) and until when')
    .option('--json', 'same as --output json')
    .action(action((ctx) => status(ctx)));
}
