import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, envBoolean, envCidrList, parseEnv } from './config.js';

const Env = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  SECRET: z.string().min(32),
  FLAG: envBoolean.default(false),
});

describe('parseEnv', () => {
  it('applies defaults and coerces values', () => {
    expect(parseEnv(Env, { SECRET: 'x'.repeat(32), FLAG: 'yes' })).toEqual({ PORT: 8080, SECRET: 'x'.repeat(32), FLAG: true });
  });

  it('treats empty strings as unset', () => {
    expect(parseEnv(Env, { SECRET: 'x'.repeat(32), PORT: '' }).PORT).toBe(8080);
  });

  it('fails listing every bad variable at once', () => {
    let error: unknown;
    try {
      parseEnv(Env, { PORT: 'eighty', FLAG: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/SECRET/);
    expect(problems).toMatch(/FLAG/);
  });
});

describe('envCidrList', () => {
  const Cidrs = z.object({ CIDRS: envCidrList });

  it('reads comma-separated CIDRs, empty when unset', () => {
    expect(parseEnv(Cidrs, {}).CIDRS).toEqual([]);
    expect(parseEnv(Cidrs, { CIDRS: ' 127.0.0.0/8, ::1/128,10.1.2.3 ' }).CIDRS).toEqual(['127.0.0.0/8', '::1/128', '10.1.2.3']);
  });

  it.each(['localhost', '10.0.0.0/33', '::/129', '10.0.0.0/8/1', '10.0.0.0/x'])('refuses %s', (cidr) => {
    expect(() => parseEnv(Cidrs, { CIDRS: `127.0.0.0/8,${cidr}` })).toThrow(/CIDRS: must be comma-separated CIDRs/);
  });
});
