import { describe, expect, it } from 'vitest';
import { MAX_PATH_LENGTH } from './limits.js';
import { checkPackagePath } from './paths.js';

describe('checkPackagePath', () => {
  it.each([
    ['./commands/echo.js', 'commands/echo.js'],
    ['././pack.yaml', 'pack.yaml'],
    ['commands/', 'commands'],
    ['lib/name with spaces.js', 'lib/name with spaces.js'],
  ])('normalises %s to %s', (raw, path) => {
    expect(checkPackagePath(raw)).toEqual({ path });
  });

  it.each(['', './', '/etc/passwd', '../x', 'a/../../x', 'a/./b', 'a//b', 'a\\b', 'C:/x', 'a\nb', 'a\u0000b', 'a\u007fb'])('refuses %j', (raw) => {
    expect(checkPackagePath(raw).problem).toEqual(expect.any(String));
  });

  it(`accepts a path of ${MAX_PATH_LENGTH} characters and refuses one more`, () => {
    expect(checkPackagePath('a'.repeat(MAX_PATH_LENGTH)).path).toHaveLength(MAX_PATH_LENGTH);
    expect(checkPackagePath('a'.repeat(MAX_PATH_LENGTH + 1)).problem).toContain(String(MAX_PATH_LENGTH));
  });
});
