import { randomBytes } from 'node:crypto';
import type { EventOutbox } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { RateLimitError, ValidationError, type Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { consumeAll, createLimiter, retryAfterSeconds } from '@svc/rate-limit';
import { queueEmail } from '../mail/queue-email.js';
import { OAuthGrantRepository } from '../repositories/oauth-grant.repository.js';
import { PasswordResetRepository } from '../repositories/password-reset.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import type { AuthService } from './auth.service.js';
import type { OAuthService } from './oauth.service.js';
import { digest } from './tokens.js';

/** Reset requests per address: a handful an hour, so nobody fills a mailbox with links. */
export const RESET_REQUESTS_PER_ADDRESS = { points: 5, durationSeconds: 3600 };

/** The console's page a link opens, on `SVC_PUBLIC_URL`. */
export const RESET_PAGE_PATH = '/reset-password';

export interface PasswordResetSettings {
  publicUrl: string;
  ttlSeconds: number;
  /** Now, for the links' expiry (a test moves it). */
  clock: () => Date;
}

export interface PasswordResetDeps {
  db: Db;
  events: EventOutbox;
  cache: Cache;
  auth: AuthService;
  oauth: OAuthService;
  log: Logger;
  settings: PasswordResetSettings;
}

type InvalidReason = 'unknown' | 'used' | 'expired';

const invalidToken = (reason: InvalidReason) =>
  ValidationError.coded('RESET_TOKEN_INVALID', 'This password reset link is unknown, used or expired; ask for a new one', { field: 'token', reason });

/**
 * Forgotten passwords: a one-time link by e-mail, and a new password set with it. Nobody learns
 * from the answer whether an address has an account: requests are answered before they are
 * looked at.
 */
export class PasswordResetService {
  private readonly perAddress;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: PasswordResetDeps) {
    this.perAddress = createLimiter({ name: 'password-reset-address', ...RESET_REQUESTS_PER_ADDRESS }, deps.cache, 'redis');
  }

  /**
   * Counts the request against the address (known or not alike), then sends the link after the
   * caller has been answered, so that an address with an account takes no longer to answer
   * than one without.
   */
  async request(email: string): Promise<void> {
    const [limit] = await consumeAll([{ limiter: this.perAddress, key: digest(email) }]);
    if (limit!.rejected) {
      const retryAfter = retryAfterSeconds(limit!);
      throw new RateLimitError(`Too many reset requests for this address; retry in ${retryAfter} s`, { retry_after: retryAfter });
    }
    const sending = this.sendLink(email)
      .catch((err: unknown) => {
        this.deps.log.error('password reset link not sent', { error: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  /**
   * Sets the password a link was sent for: the link and every other of the user's is spent,
   * every session and OAuth authorization of the user ends.
   */
  async confirm(token: string, password: string): Promise<void> {
    const { db, auth, oauth, settings } = this.deps;
    const reset = await new PasswordResetRepository(db).findByTokenHash(digest(token));
    if (!reset) throw invalidToken('unknown');
    if (reset.usedAt) throw invalidToken('used');
    if (reset.expiresAt.getTime() <= settings.clock().getTime()) throw invalidToken('expired');
    const user = await new UserRepository(db).findById(reset.userId);
    if (!user) throw invalidToken('unknown');
    await auth.setPassword(user, password, (spent) => {
      if (!spent.includes(reset.id)) throw invalidToken('used');
    });
    for (const grantId of await new OAuthGrantRepository(db).liveIdsOf(user.id)) await oauth.revokeGrant(grantId);
  }

  /** Waits for the links being sent. */
  async stop(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  private async sendLink(email: string): Promise<void> {
    const { db, events, settings } = this.deps;
    const user = await new UserRepository(db).findByEmail(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(settings.clock().getTime() + settings.ttlSeconds * 1000);
    const link = new URL(`${settings.publicUrl.replace(/\/+$/, '')}${RESET_PAGE_PATH}`);
    link.searchParams.set('token', token);
    await events.transaction(async (tx, out) => {
      await new PasswordResetRepository(tx).insert({ userId: user.id, tokenHash: digest(token), expiresAt });
      queueEmail(out, user.email, 'password-reset', { name: user.name, link: link.href, expires_at: expiresAt.toISOString() }, user.id);
    });
  }
}
