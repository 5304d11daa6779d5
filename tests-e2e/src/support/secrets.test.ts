import { describe, expect, it } from 'vitest';
import { linesHoldingSecrets, rememberSecretsOf } from './secrets.js';

describe('the log scan for secrets', () => {
  it('finds the secrets of bodies sent and received in log lines, masked, and nothing else', () => {
    const key = `sk-svc-${'ab'.repeat(32)}`;
    rememberSecretsOf({ email: 'x@example.test', password: 'hunter2-hunter2', tokens: { accessToken: 'eyJ.access.token', refreshToken: 'refresh-token-1' } });
    rememberSecretsOf({ data: { key, id: 'c0ffee00-0000-4000-8000-000000000000', note: 'the code is SVC-AB12-CD34' } });
    rememberSecretsOf({ value: 'pack-secret-value' }, true);
    rememberSecretsOf({ error: { code: 'VALIDATION_FAILED', message: 'short' } });
    const lines = [
      '{"level":"info","message":"login","email":"x@example.test"}',
      '{"level":"debug","body":{"password":"hunter2-hunter2"}}',
      `{"level":"info","header":"Bearer ${key}"}`,
      '{"level":"info","message":"redeemed SVC-AB12-CD34"}',
      '{"level":"warn","message":"pack-secret-value"}',
      '{"level":"error","code":"VALIDATION_FAILED","id":"c0ffee00-0000-4000-8000-000000000000"}',
    ];
    const found = linesHoldingSecrets(lines);
    expect(found).toHaveLength(4);
    expect(found.join('\n')).not.toMatch(/hunter2-hunter2|sk-svc-abab|SVC-AB12-CD34|pack-secret-value/);
    expect(found[0]).toContain('<secret hunt…>');
  });
});
