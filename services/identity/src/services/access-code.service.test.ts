import { describe, expect, it } from 'vitest';
import { ACCESS_CODE_PATTERN } from '@svc/contracts';
import { generateCode } from './access-code.service.js';

describe('access code generation', () => {
  it('makes codes of the SVC-XXXX-XXXX format without look-alike characters', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = generateCode();
      expect(code).toMatch(ACCESS_CODE_PATTERN);
      expect(code.slice(4)).not.toMatch(/[01OI]/);
    }
  });

  it('starts the first group with the prefix', () => {
    expect(generateCode('AB')).toMatch(/^SVC-AB[A-Z0-9]{2}-[A-Z0-9]{4}$/);
    expect(generateCode('WXYZ')).toMatch(/^SVC-WXYZ-[A-Z0-9]{4}$/);
  });
});
