import type { Tokens, User } from '@svc/contracts';
import { randomUUID } from 'node:crypto';
import type { EventOutbox } from '@svc/bus';
import { signAccessToken } from '@svc/auth';
import { AuthenticationError, ConflictError, NotFoundError, type Logger } from '@svc/core';
import { violatedUniqueConstraint, type Db } from '@svc/db';
import { AccessCodeRepository } from '../repositories/access-code.repository.js';
import { PasswordResetRepository } from '../repositories/password-reset.repository.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { UserRepository, type UserWithTenant } from '../repositories/user.repository.js';
import type { PasswordHasher } from './password.js';
import type { PrincipalService } from './principal.service.js';
import { queueEmail } from '../mail/queue-email.js';
import { accessCodeInvalid } from './access-code.service.js';
import { presented } from './code-digest.js';
import { assertSlugAllowed, slugTaken } from './slug.js';
import { digest, newRefreshToken } from './tokens.js';

export interface TokenSettings {
  jwtSecret: string;
  /** SVC_INTERNAL_SECRET: the key of the access codes' digests, by which a code is redeemed. */
  internalSecret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export function publicUser(user: UserWithTenant): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    developerMode: user.developerMode,
    subscriptionTier: user.subscriptionTier,
    createdAt: user.createdAt.toISOString(),
  };
}

/** The same answer for an unknown e-mail and a wrong password, so accounts cannot be probed. */
const badCredentials = () => new AuthenticationError('Invalid email or password');
const emailTaken = () => ConflictError.coded('EMAIL_TAKEN', 'An account with this e-mail already exists', { field: 'email' });

export interface AuthServiceOptions {
  db: Db;
  events: EventOutbox;
  hasher: PasswordHasher;
  principals: PrincipalService;
  settings: TokenSettings;
  log: Logger;
}

export class AuthService {
  private readonly db: Db;
  private readonly events: EventOutbox;
  private readonly hasher: PasswordHasher;
  private readonly principals: PrincipalService;
  private readonly settings: TokenSettings;
  private readonly log: Logger;

  constructor(options: AuthServiceOptions) {
    ({ db: this.db, events: this.events, hasher: this.hasher, principals: this.principals, settings: this.settings, log: this.log } = options);
  }

  async register(input: { email: string; password: string; slug: string; access_code: string; name?: string }) {
    assertSlugAllowed(input.slug);
    const passwordHash = await this.hasher.hash(input.password);
    const { user, tokens } = await this.events
      .transaction(async (tx, out) => {
        const users = new UserRepository(tx);
        if (await users.findByEmail(input.email)) throw emailTaken();
        if (await users.slugExists(input.slug)) throw slugTaken(input.slug);
        const codes = new AccessCodeRepository(tx);
        const code = presented(this.settings.internalSecret, input.access_code);
        const found = await codes.findByCode(code);
        if (!found) throw accessCodeInvalid('access_code');
        const created = await users.create({ email: input.email, passwordHash, slug: input.slug, name: input.name ?? '', tier: found.tier });
        const redeemed = await codes.redeem(code, created.id);
        if (!redeemed) throw accessCodeInvalid('access_code');
        out.publish('user.registered', { user_id: created.id, tenant_id: created.tenant.id, email: created.email, tier: created.subscriptionTier, access_code_id: redeemed.id, cohort: redeemed.cohort });
        return { user: created, tokens: await this.openSession(tx, created.id) };
      })
      .catch((err: unknown) => {
        // Two registrations racing for one e-mail or slug: the loser gets the same answer as if it came second.
        const constraint = violatedUniqueConstraint(err);
        if (constraint === undefined) throw err;
        throw constraint === 'tenants_slug_unique' ? slugTaken(input.slug) : emailTaken();
      });
    return { tokens, user: publicUser(user) };
  }

  async login(email: string, password: string) {
    const user = await this.userWithPassword(email, password);
    return { tokens: await this.openSession(this.db, user.id), user: publicUser(user) };
  }

  /**
   * A sign-in that is not a client's (the OAuth consent page): a session the user's sign-out and
   * password change end like any other, named by its id alone. Its tokens are not handed out.
   */
  async openBrowserSession(email: string, password: string): Promise<{ userId: string; sessionId: string }> {
    const user = await this.userWithPassword(email, password);
    const sessionId = randomUUID();
    await this.issue(new SessionRepository(this.db), user.id, sessionId);
    return { userId: user.id, sessionId };
  }

  /** Rotates a refresh token. Presenting a used token revokes its whole family. */
  async refresh(refreshToken: string): Promise<Tokens> {
    const sessions = new SessionRepository(this.db);
    const session = await sessions.findByTokenHash(digest(refreshToken));
    if (!session || session.revokedAt) throw new AuthenticationError('Invalid refresh token');
    if (session.expiresAt.getTime() <= Date.now()) throw new AuthenticationError('Refresh token expired');
    if (session.usedAt || !(await sessions.markUsed(session.id))) {
      await sessions.revokeFamily(session.familyId);
      await this.principals.forgetSessions([session.familyId]);
      this.log.warn('refresh token reuse detected; session family revoked', { user_id: session.userId, family_id: session.familyId });
      throw new AuthenticationError('Refresh token was already used; the session has been revoked');
    }
    return this.issue(sessions, session.userId, session.familyId);
  }

  async logout(sessionId: string): Promise<void> {
    await new SessionRepository(this.db).revokeFamily(sessionId);
    await this.principals.forgetSessions([sessionId]);
  }

  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
    const user = await new UserRepository(this.db).findById(userId);
    if (!user) throw new NotFoundError('User not found');
    await this.replacePassword(user, currentPassword, newPassword);
  }

  async changePasswordWithLogin(email: string, currentPassword: string, newPassword: string): Promise<void> {
    const user = await this.userWithPassword(email, currentPassword);
    await this.replacePassword(user, currentPassword, newPassword);
  }

  /**
   * An operator ends every refresh session of a user (`identity.sessions.revoke`). The access
   * tokens name their session, so dropping the cached principals makes the gateway ask again
   * and hear "none": they stop working at once, not when they expire.
   */
  async revokeAllSessions(userId: string): Promise<number> {
    if (!(await new UserRepository(this.db).findById(userId))) throw new NotFoundError('No such user', { user_id: userId });
    const families = await new SessionRepository(this.db).revokeAllOfUser(userId);
    await this.principals.forgetSessions(families);
    return families.length;
  }

  private async replacePassword(user: UserWithTenant, currentPassword: string, newPassword: string): Promise<void> {
    if (!(await this.hasher.verify(currentPassword, user.passwordHash))) throw new AuthenticationError('Current password is incorrect');
    await this.setPassword(user, newPassword);
  }

  /**
   * Sets a new password: every session of the user ends, every reset link still outstanding is
   * spent, and the user is told by e-mail. `check` runs in the same transaction once the links
   * are spent (a reset makes sure its own link was among them, so a link is used once).
   */
  async setPassword(user: UserWithTenant, newPassword: string, check?: (spentResets: string[]) => void): Promise<void> {
    const passwordHash = await this.hasher.hash(newPassword);
    const revoked = await this.events.transaction(async (tx, out) => {
      const spent = await new PasswordResetRepository(tx).spendAllOf(user.id, new Date());
      check?.(spent);
      await new UserRepository(tx).update(user.id, { passwordHash });
      const families = await new SessionRepository(tx).revokeAllOfUser(user.id);
      queueEmail(out, user.email, 'password-changed', { name: user.name, changed_at: new Date().toISOString() }, user.id);
      out.publish('password.changed', { user_id: user.id });
      return families;
    });
    await this.principals.forgetSessions(revoked);
  }

  /** The user with this e-mail and password; the same error for an unknown e-mail, after a comparison all the same. */
  private async userWithPassword(email: string, password: string): Promise<UserWithTenant> {
    const user = await new UserRepository(this.db).findByEmail(email);
    const ok = await this.hasher.verify(password, user?.passwordHash);
    if (!user || !ok) throw badCredentials();
    return user;
  }

  private async openSession(db: Db, userId: string): Promise<Tokens> {
    return this.issue(new SessionRepository(db), userId, randomUUID());
  }

  private async issue(sessions: SessionRepository, userId: string, familyId: string): Promise<Tokens> {
    const refreshToken = newRefreshToken();
    const refreshExpiresAt = Date.now() + this.settings.refreshTtlSeconds * 1000;
    await sessions.insert({ familyId, userId, tokenHash: digest(refreshToken), expiresAt: new Date(refreshExpiresAt) });
    const access = signAccessToken({ sub: userId, sid: familyId }, this.settings.jwtSecret, this.settings.accessTtlSeconds);
    return { accessToken: access.token, refreshToken, expiresAt: access.expiresAt, refreshExpiresAt };
  }
}

