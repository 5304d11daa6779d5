/** Verified tokens kept at most by one store: a caller presents one token for many requests. */
const MAX_REMEMBERED_TOKENS = 10_000;

/**
 * What tokens were verified to say, kept by their exact text until they expire: a token checked
 * once (signature, issuer, audience, expiry) need not be checked and parsed again on every
 * request, which was a measurable share of a process's CPU (BENCHMARKS.md). Only a token that
 * passed its check is ever put here, so a forged or altered one (other text) always meets the
 * check. When full, every entry is forgotten at once, and the busy tokens are checked again on
 * their next request.
 */
export class RememberedTokens<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  /** What `token` was verified to say, unless it has expired since (then it is forgotten). */
  get(token: string): T | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    this.entries.delete(token);
    return undefined;
  }

  /** `expiresAt`: when the token stops being good, in ms since the epoch (its `exp` × 1000). */
  remember(token: string, value: T, expiresAt: number): void {
    if (this.entries.size >= MAX_REMEMBERED_TOKENS) this.entries.clear();
    this.entries.set(token, { value, expiresAt });
  }
}
