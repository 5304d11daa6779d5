import type { Context } from '../context.js';
import { validationError } from '../errors.js';

export interface BrowserLoginOptions {
  openBrowser: boolean;
}

/** Signs in through the platform's sign-in page; resolves with the tokens it hands back. */
export async function browserLogin(_ctx: Context, _options: BrowserLoginOptions): Promise<{ accessToken: string; refreshToken?: string }> {
  throw validationError('Signing in through the browser is not available yet: use `svc login --token <token>`', { code: 'BROWSER_LOGIN_UNAVAILABLE' });
}
