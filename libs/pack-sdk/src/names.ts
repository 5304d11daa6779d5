/** A namespace is a tenant slug: 2-39 of `[a-z0-9-]`, no hyphen at either end, no "@". */
export const NAMESPACE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])$/;
/** Pack and command names. */
export const NAME_PATTERN = /^[a-z0-9-]+$/;
export const MAX_NAME_LENGTH = 64;
/** A dashboard's name (its slug): kebab-case, 3-50 characters. */
export const DASHBOARD_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const VISIBILITIES = ['public', 'unlisted', 'private', 'organization'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * The MCP tool name of a command: `@scope/pack/command` becomes `scope__pack__command`.
 *
 * @example
 *   toolName('acme', 'text-tools', 'echo'); // 'acme__text-tools__echo'
 */
export function toolName(namespace: string, pack: string, command: string): string {
  return `${namespace}__${pack}__${command}`;
}

/**
 * Splits `@scope/pack` into its parts, or returns undefined when it is not one.
 *
 * @example
 *   parsePackRef('@acme/text-tools'); // { namespace: 'acme', name: 'text-tools' }
 */
export function parsePackRef(ref: string): { namespace: string; name: string } | undefined {
  const match = /^@([^/]+)\/([^/]+)$/.exec(ref);
  if (!match || !NAMESPACE_PATTERN.test(match[1]!) || !NAME_PATTERN.test(match[2]!) || match[2]!.length > MAX_NAME_LENGTH) return undefined;
  return { namespace: match[1]!, name: match[2]! };
}

/** A pack secret's name, as an environment variable's: `API_TOKEN`. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Secrets a pack may declare (and a tenant keep for it). */
export const MAX_SECRETS = 50;
/** An SSH target's name: kebab-case, at most `MAX_SSH_TARGET_NAME_LENGTH`. */
export const SSH_TARGET_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SSH_TARGET_NAME_LENGTH = 128;
/** Target names a pack may list under `ssh_targets.allowed`. */
export const MAX_SSH_TARGETS = 100;
/** A host a pack may reach: a DNS name (`api.example.com`) or every name under one (`*.example.com`). */
export const EGRESS_HOST_PATTERN = '^(\\*\\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$';
