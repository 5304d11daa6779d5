import { describe, expect, it } from 'vitest';
import { assertSlugAllowed } from './slug.js';

function codeOf(slug: string): string | undefined {
  try {
    assertSlugAllowed(slug);
    return undefined;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe('slug rules', () => {
  it.each(['ab', 'a1', 'acme', 'acme-tools', 'a-b-c', 'x'.repeat(39), '42'])('accepts %s', (slug) => {
    expect(codeOf(slug)).toBeUndefined();
  });

  it.each(['a', 'x'.repeat(40), '-acme', 'acme-', 'Acme', 'ac_me', 'ac me', 'acmé', ''])('refuses %j as SLUG_INVALID', (slug) => {
    expect(codeOf(slug)).toBe('SLUG_INVALID');
  });

  it.each(['system', 'admin', 'svc', 'api', 'root', 'support', 'www', 'platform', 'svc-tools'])('refuses %s as SLUG_RESERVED', (slug) => {
    expect(codeOf(slug)).toBe('SLUG_RESERVED');
  });
});
