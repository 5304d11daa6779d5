/**
 * The secrets this test process has seen go to or come from a fleet (tokens, API keys,
 * passwords, access codes, webhook secrets, pack secrets, SSH credentials), so that a fleet's
 * log can be scanned for them when it stops (`startTestFleet`). `client()` records every body
 * it sends and receives; a test that makes a secret another way records it with `rememberSecret`.
 */
const seen = new Set<string>();

/** Values shorter than this are too common to be told apart from ordinary text in a log. */
const MIN_LENGTH = 8;
/** Fields whose string values are secrets wherever they appear in a body. */
const SECRET_FIELD = /^(?:password|current_password|new_password|accessToken|refreshToken|access_token|refresh_token|secret|private_key|passphrase|access_code|codes)$/i;
/** Secrets recognised by their form, in any field: API keys, access codes, webhook secrets. */
const SECRET_FORMS = [/sk-svc-[0-9a-f]{64}/g, /SVC-[A-Z0-9]{4}-[A-Z0-9]{4}/g, /whsec_[0-9a-f]{64}/g];

export function rememberSecret(value: string): void {
  if (value.length >= MIN_LENGTH) seen.add(value);
}

/**
 * Records the secrets of a body: the values of secret fields, and strings of a secret's form
 * anywhere. `valueIsSecret` marks bodies whose `value` is a secret (a pack secret's PUT).
 */
export function rememberSecretsOf(body: unknown, valueIsSecret = false): void {
  const walk = (node: unknown, secret: boolean): void => {
    if (typeof node === 'string') {
      if (secret) rememberSecret(node);
      for (const form of SECRET_FORMS) for (const match of node.matchAll(form)) rememberSecret(match[0]);
    } else if (Array.isArray(node)) {
      for (const item of node) walk(item, secret);
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) walk(value, secret || SECRET_FIELD.test(key) || (valueIsSecret && key === 'value'));
    }
  };
  walk(body, false);
}

/** Each log line that holds a remembered secret, with the secret masked (so the report leaks nothing). */
export function linesHoldingSecrets(lines: string[]): string[] {
  const found: string[] = [];
  for (const line of lines) {
    for (const secret of seen) {
      if (line.includes(secret)) found.push(line.split(secret).join(`<secret ${secret.slice(0, 4)}…>`).slice(0, 500));
    }
  }
  return found;
}
