import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import { ACCESS_CODE_PATTERN, type CreateAccessCodesBody } from '@svc/contracts';
import { AppError, InternalError, NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { AccessCodeRepository, type AccessCodeRow } from '../repositories/access-code.repository.js';

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

const invalidCode = () =>
  new AppError({ status: 400, code: 'ACCESS_CODE_INVALID', type: 'ValidationError', message: 'Access code is invalid, inactive or used up', details: { field: 'code' } });

export class AccessCodeService {
  constructor(private readonly db: Db) {}

  async create(input: z.infer<typeof CreateAccessCodesBody>, createdBy: string) {
    const repo = new AccessCodeRepository(this.db);
    const codes: string[] = [];
    // Collisions are rare but possible with a long prefix; retry the missing ones a few times.
    for (let attempt = 0; attempt < 5 && codes.length < input.count; attempt += 1) {
      const batch = Array.from({ length: input.count - codes.length }, () => generateCode(input.prefix));
      const rows = await repo.insertMany(
        [...new Set(batch)].map((code) => ({ code, tier: input.tier, cohort: input.cohort, maxUses: input.max_uses, createdBy })),
      );
      codes.push(...rows.map((r) => r.code));
    }
    if (codes.length < input.count) throw new InternalError('Could not generate enough unique codes; try a shorter prefix');
    return { codes, count: codes.length, tier: input.tier, cohort: input.cohort };
  }

  async list() {
    return (await new AccessCodeRepository(this.db).list()).map(accessCodeView);
  }

  async deactivate(id: string) {
    const row = await new AccessCodeRepository(this.db).deactivate(id);
    if (!row) throw new NotFoundError('Access code not found', { code_id: id });
    return { id: row.id, is_active: false };
  }

  async validate(code: string) {
    if (!ACCESS_CODE_PATTERN.test(code)) throw invalidCode();
    const row = await new AccessCodeRepository(this.db).findByCode(code);
    if (!row || !row.isActive || row.useCount >= row.maxUses) throw invalidCode();
    return { valid: true as const, tier: row.tier };
  }
}
