import type { AdminAccessCodePage, CompCodeMinted, UserSessionsRevoked, UserTierSet } from '@svc/contracts';
import type { z } from 'zod';
import type { Bus } from '@svc/bus';
import { LIST_ACCESS_CODES_RPC, MINT_ACCESS_CODE_RPC, REVOKE_SESSIONS_RPC, SET_USER_TIER_RPC, type AdminAccessCodesQuery, type AdminCompCodeBody, type AdminSetTierBody } from '@svc/contracts';
import { NotFoundError, ValidationError, type Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { decodeCursor, encodeCursor, invalidCursor } from '../http/page.js';
import { AdminUserRepository } from '../repositories/admin-user.repository.js';
import { tierChangedEmail } from './operator-messages.js';

/** Comp codes carry this cohort, so that the `referral` filter finds who registered with one. */
const COMP_COHORT = 'comp';

/**
 * What an operator changes about a user. Identity owns users, sessions and codes: each change is
 * its RPC, and the admin area's read model follows from the events identity publishes.
 */
export class OperatorService {
  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly log: Logger,
    private readonly now: () => Date,
  ) {}

  /** The literal is in this answer and nowhere else: not in a row, a log line or an event. */
  async mintCompCode(userId: string, body: z.infer<typeof AdminCompCodeBody>): Promise<CompCodeMinted> {
    await this.existing(userId);
    if (body.expires_at && Date.parse(body.expires_at) <= this.now().getTime()) {
      throw new ValidationError('expires_at must lie in the future', { field: 'expires_at', reason: 'not_in_future' });
    }
    const expiresAt = body.expires_at ? new Date(body.expires_at).toISOString() : null;
    const minted = await this.bus.request(MINT_ACCESS_CODE_RPC, { tier: body.tier, cohort: COMP_COHORT, max_uses: body.max_uses, expires_at: expiresAt, kind: 'comp' });
    return { id: minted.id, code: minted.code, user_id: userId, kind: 'comp' as const, tier: body.tier, cohort: COMP_COHORT, max_uses: body.max_uses, expires_at: expiresAt };
  }

  /** Identity's codes, newest first, without a literal; `referral` is the cohort. */
  async listAccessCodes(query: z.infer<typeof AdminAccessCodesQuery>): Promise<AdminAccessCodePage> {
    const after = query.cursor ? codeCursor(query.cursor) : undefined;
    const { codes } = await this.bus.request(LIST_ACCESS_CODES_RPC, {
      kind: query.kind,
      redeemed: query.redemption_status && query.redemption_status === 'redeemed',
      cohort: query.referral,
      after,
      offset: query.offset ?? 0,
      limit: query.limit + 1,
    });
    const page = codes.slice(0, query.limit);
    const last = page.at(-1);
    return { access_codes: page, next_cursor: codes.length > query.limit && last ? encodeCursor(new Date(last.created_at), last.id) : null };
  }

  async revokeSessions(userId: string): Promise<UserSessionsRevoked> {
    const { revoked } = await this.bus.request(REVOKE_SESSIONS_RPC, { user_id: userId });
    return { user_id: userId, revoked_sessions: revoked };
  }

  /** The change stands whatever becomes of the e-mail: it is asked for once, best effort. */
  async setTier(userId: string, body: z.infer<typeof AdminSetTierBody>, changedBy: string): Promise<UserTierSet> {
    const user = await this.existing(userId);
    const changed = await this.bus.request(SET_USER_TIER_RPC, { user_id: userId, tier: body.tier, reason: body.reason, changed_by: changedBy });
    let emailRequested = false;
    if (changed.previous_tier !== changed.tier) {
      try {
        await this.bus.publish('email.requested', tierChangedEmail(user.email, userId, changed.tier, changed.previous_tier));
        emailRequested = true;
      } catch (err) {
        this.log.warn('tier change e-mail not requested', { user_id: userId, error: (err as Error).message });
      }
    }
    return { user_id: userId, tier: changed.tier, previous_tier: changed.previous_tier, reason: body.reason, email_requested: emailRequested };
  }

  private async existing(userId: string) {
    const user = await new AdminUserRepository(this.db).find(userId);
    if (!user) throw new NotFoundError('No such user', { user_id: userId });
    return user;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A code page's cursor names a code by its id, a uuid; anything else is the cursor error of every list. */
function codeCursor(cursor: string) {
  const { at, id } = decodeCursor(cursor);
  if (!UUID.test(id)) throw invalidCursor();
  return { created_at: at.toISOString(), id };
}
