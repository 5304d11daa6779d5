import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import { ACCESS_CODE_PATTERN, type CreateAccessCodesBody, type LIST_ACCESS_CODES_RPC, type MINT_ACCESS_CODE_RPC, type RpcReply, type RpcRequest } from '@svc/contracts';
import { AppError, InternalError, NotFoundError, ValidationError } from '@svc/core';
import type { Db } from '@svc/db';
import { AccessCodeRepository, type AccessCodeRow } from '../repositories/access-code.repository.js';
import { codeDigest, presented } from './code-digest.js';

/** No 0/O or 1/I, so a code read aloud or copied by hand survives. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function randomChars(n: number): string {
  let out = '';
  for (let i = 0; i < n; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** `SVC-XXXX-XXXX`; a prefix of up to four characters starts the first group. */
export function generateCode(prefix = ''): string {
  const first = (prefix + randomChars(4)).slice(0, 4);
  return `SVC-${first}-${randomChars(4)}`;
}

export function accessCodeView(row: AccessCodeRow) {
  return {
    id: row.id,
    code: row.code,
    tier: row.tier,
    cohort: row.cohort,
    max_uses: row.maxUses,
    use_count: row.useCount,
    is_active: row.isActive,
    redeemed_by: row.redeemedBy,
    redeemed_at: row.redeemedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const ACCESS_CODE_INVALID = 'ACCESS_CODE_INVALID';

/**
 * One answer for a code that is unknown, inactive or used up, so that codes cannot be probed;
 * `field` names the body field that carried it (`code` to validate, `access_code` to register).
 */
export const accessCodeInvalid = (field: 'code' | 'access_code') =>
  ValidationError.coded(ACCESS_CODE_INVALID, 'Access code is invalid, inactive or used up', { field });

export const isAccessCodeInvalid = (err: unknown): err is AppError => err instanceof AppError && err.code === ACCESS_CODE_INVALID;

export class AccessCodeService {
  /** `digestKey`: SVC_INTERNAL_SECRET, the key of the codes' digests (`codeDigest`). */
  constructor(
    private readonly db: Db,
    private readonly digestKey: string,
  ) {}

  async create(input: z.infer<typeof CreateAccessCodesBody>, createdBy: string) {
    const repo = new AccessCodeRepository(this.db);
    const codes: string[] = [];
    // Collisions are rare but possible with a long prefix; retry the missing ones a few times.
    for (let attempt = 0; attempt < 5 && codes.length < input.count; attempt += 1) {
      const batch = Array.from({ length: input.count - codes.length }, () => generateCode(input.prefix));
      const rows = await repo.insertMany(
        [...new Set(batch)].map((code) => ({ code, codeDigest: codeDigest(this.digestKey, code), tier: input.tier, cohort: input.cohort, maxUses: input.max_uses, createdBy })),
      );
      codes.push(...rows.map((r) => r.code!));
    }
    if (codes.length < input.count) throw new InternalError('Could not generate enough unique codes; try a shorter prefix');
    return { codes, count: codes.length, tier: input.tier, cohort: input.cohort };
  }

  /** One code for another service (paid registration, an operator's comp code): `identity.access-code.mint`. */
  async mint(request: RpcRequest<typeof MINT_ACCESS_CODE_RPC>): Promise<{ id: string; code: string }> {
    const repo = new AccessCodeRepository(this.db);
    const expiresAt = request.expires_at ? new Date(request.expires_at) : null;
    const mintKey = request.idempotency_key ?? null;
    const earlier = async () => {
      const row = mintKey ? await repo.findByMintKey(mintKey) : undefined;
      return row?.code ? { id: row.id, code: row.code } : undefined;
    };
    const first = await earlier();
    if (first) return first;
    // A collision is rare; another draw settles it. A copy racing this one under the same key loses its insert and answers the winner's code.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const code = generateCode();
      // A comp code's literal is answered here once and kept nowhere: only its digest finds it.
      const kept = request.kind === 'comp' ? null : code;
      const [row] = await repo.insertMany([{ code: kept, codeDigest: codeDigest(this.digestKey, code), mintKey, tier: request.tier, cohort: request.cohort, maxUses: request.max_uses, kind: request.kind, expiresAt }]);
      if (row) return { id: row.id, code };
      const raced = await earlier();
      if (raced) return raced;
    }
    throw new InternalError('Could not generate a unique access code');
  }

  async list() {
    return (await new AccessCodeRepository(this.db).list()).map(accessCodeView);
  }

  /** `identity.access-codes.list`: what the admin area lists, never a literal. */
  async page(request: RpcRequest<typeof LIST_ACCESS_CODES_RPC>): Promise<RpcReply<typeof LIST_ACCESS_CODES_RPC>> {
    const after = request.after ? { createdAt: new Date(request.after.created_at), id: request.after.id } : undefined;
    const rows = await new AccessCodeRepository(this.db).page({ kind: request.kind, redeemed: request.redeemed, cohort: request.cohort, after }, request.offset, request.limit);
    return {
      codes: rows.map((row) => {
        const { code: _literal, ...seen } = accessCodeView(row);
        return { ...seen, kind: row.kind, expires_at: row.expiresAt?.toISOString() ?? null };
      }),
    };
  }

  async deactivate(id: string) {
    const row = await new AccessCodeRepository(this.db).deactivate(id);
    if (!row) throw new NotFoundError('Access code not found', { code_id: id });
    return { id: row.id, is_active: false };
  }

  async validate(code: string) {
    if (!ACCESS_CODE_PATTERN.test(code)) throw accessCodeInvalid('code');
    const row = await new AccessCodeRepository(this.db).findByCode(presented(this.digestKey, code));
    if (!row || !row.isActive || row.useCount >= row.maxUses || (row.expiresAt && row.expiresAt <= new Date())) throw accessCodeInvalid('code');
    return { valid: true as const, tier: row.tier };
  }
}
