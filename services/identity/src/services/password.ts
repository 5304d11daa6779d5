import bcrypt from 'bcrypt';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Compares a password with a stored hash. Without a hash (unknown account) it still spends
   * the time of one comparison and answers false, so failures cannot be told apart by timing.
   */
  verify(password: string, hash: string | undefined): Promise<boolean>;
}

/** bcrypt with a configurable cost; tests use the minimum to stay fast. */
export function bcryptHasher(rounds: number): PasswordHasher {
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => bcrypt.hash(password, rounds),
    async verify(password, hash) {
      if (hash !== undefined) return bcrypt.compare(password, hash);
      dummy ??= bcrypt.hash('not a password of anybody', rounds);
      await bcrypt.compare(password, await dummy);
      return false;
    },
  };
}
