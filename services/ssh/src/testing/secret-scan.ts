import type { LogEntry } from '@svc/testing';

/**
 * What of `secrets` appears in the log entries: each secret is looked for whole, and for a
 * private key also line by line (a key's base64 body), so that a key logged in part is found too.
 */
export function secretsInLog(entries: LogEntry[], secrets: string[]): string[] {
  const text = entries.map((entry) => JSON.stringify(entry)).join('\n');
  const needles = secrets.flatMap((secret) => [secret, ...secret.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'))]);
  return [...new Set(needles.filter((needle) => text.includes(needle) || text.includes(JSON.stringify(needle).slice(1, -1))))];
}
