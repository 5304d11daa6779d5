import type { Command } from 'commander';
import { API_KEY_PREFIX, isJwt, type ApiClient } from '../api.js';
import { maskSecret } from '../config.js';
import type { Context } from '../context.js';
import { asCliError, authError, CliError } from '../errors.js';
import { action, booleanOption } from '../program.js';
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
export async function whoIs(api: ApiClient, kind: TokenKind): Promise<Me | null> {
  if (kind === 'api_key') {
    await api.request('GET', '/api/v1/commands', { query: { limit: 1 } });
    return null;
  }
  return api.data<Me>('GET', '/api/v1/auth/me');
}

async function login(ctx: Context, options: { token?: string; browser: boolean }): Promise<void> {
  let tokens: { accessToken: string; refreshToken?: string };
  if (options.token) {
    tokens = { accessToken: options.token.trim() };
  } else {
    tokens = await browserLogin(ctx, { openBrowser: options.browser });
  }
  const kind = kindOf(tokens.accessToken);
  const me = await whoIs(ctx.api(ctx.apiUrl, tokens.accessToken), kind);
  if (ctx.config.entry('auth.token').source === 'env') ctx.out.warn('SVC_TOKEN is set and is used instead of the token saved now');
  ctx.config.set('auth.token', tokens.accessToken);
  ctx.config.set('auth.refresh_token', tokens.refreshToken);
  await ctx.config.save();
  const who = me ? `${me.email} (${me.tenantSlug ?? me.id})` : `an API key (${tokens.accessToken.slice(0, 14)}…)`;
  ctx.out.result(
    { signed_in: true, token_kind: kind, user: me, api_url: ctx.apiUrl, config_path: ctx.config.path, refreshable: Boolean(tokens.refreshToken) },
    `Signed in to ${ctx.apiUrl} as ${who}.\nToken saved in ${ctx.config.path}.`,
  );
}

/** Revokes the API key `svc mcp` made (found by its display prefix) while the session still works. */
async function revokeCliApiKey(api: ApiClient, key: string): Promise<boolean> {
  const keys = await api.data<Array<{ id: string; key_prefix: string; revoked_at: string | null }>>('GET', '/api/v1/account/api-keys');
  const mine = keys.find((candidate) => !candidate.revoked_at && key.startsWith(candidate.key_prefix));
  if (!mine) return false;
  await api.request('DELETE', `/api/v1/account/api-keys/${encodeURIComponent(mine.id)}`);
  return true;
}

async function logout(ctx: Context): Promise<void> {
  const token = ctx.config.fileValue('auth.token');
  const apiKey = ctx.config.fileValue('auth.api_key');
  const revoked = { session_revoked: false, api_key_revoked: false };
  if (typeof token === 'string' && isJwt(token)) {
    const api = ctx.api(ctx.apiUrl, token);
    // Signing out locally must work offline or with an expired token: each revocation is best effort.
    const attempt = async (what: keyof typeof revoked, work: () => Promise<boolean>) => {
      try {
        revoked[what] = await work();
      } catch (err) {
        ctx.out.debug(`${what.replace('_', ' ')}: no (${asCliError(err).message})`);
      }
    };
    if (typeof apiKey === 'string') await attempt('api_key_revoked', () => revokeCliApiKey(api, apiKey));
    await attempt('session_revoked', async () => (await api.request('POST', '/api/v1/auth/logout', { body: {} }), true));
  }
  const hadToken = token !== undefined;
  for (const key of ['auth.token', 'auth.refresh_token', 'auth.api_key'] as const) ctx.config.set(key, undefined);
  await ctx.config.save();
  ctx.out.result({ signed_out: hadToken, ...revoked }, hadToken ? 'Signed out.' : 'Was not signed in.');
}

async function status(ctx: Context): Promise<void> {
  const health = await ctx.api().request<{ status?: string; version?: string }>('GET', '/health', { auth: false, accept: [503] });
  const token = ctx.token();
  const auth: Record<string, unknown> = { signed_in: false, token_kind: null, source: ctx.config.entry('auth.token').source, user: null };
  let failure: CliError | undefined;
  if (token) {
    try {
      const kind = kindOf(token);
      auth.token_kind = kind;
      auth.token = maskSecret(token);
      auth.user = await whoIs(ctx.api(), kind);
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
    platform: { status: health.body?.status ?? 'unknown', version: health.body?.version ?? null },
    auth,
  };
  const user = auth.user as Me | null;
  const lines = [
    `svc ${ctx.version}`,
    `Platform: ${ctx.apiUrl} (${data.platform.status}${data.platform.version ? `, version ${data.platform.version}` : ''})`,
    auth.signed_in
      ? `Signed in${user ? ` as ${user.email} (${user.tenantSlug ?? user.id}), ${user.developerMode ? 'developer' : 'consumer'} mode` : ' with an API key'}`
      : token
        ? `Token rejected: ${String(auth.error)}`
        : 'Not signed in (run `svc login`)',
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
    .option('--token <token>', 'sign in with this token instead of the browser')
    .option('--browser [open]', 'open the sign-in page in a browser (true); false prints its address instead', booleanOption('--browser'), true)
    .option('--no-browser', 'do not open a browser; print the sign-in address')
    .action(action<{ token?: string; browser: boolean }>((ctx, _args, options) => login(ctx, options)));

  program
    .command('logout')
    .description('sign out: revoke the session on the platform and remove the stored token')
    .action(action((ctx) => logout(ctx)));

  program
    .command('status')
    .description('the platform, its version, and who you are signed in as')
    .option('--json', 'same as --output json')
    .action(action((ctx) => status(ctx)));
}
