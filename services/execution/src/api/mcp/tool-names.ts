/** `@scope/pack/command` ↔ `scope__pack__command`: names are `[a-z0-9-]+`, so `__` never occurs inside one. */
const SEPARATOR = '__';
const PART = /^[a-z0-9-]+$/;

export function toolName(namespace: string, pack: string, command: string): string {
  return [namespace, pack, command].join(SEPARATOR);
}

export function parseToolName(name: string): { namespace: string; pack: string; command: string } | undefined {
  const parts = name.split(SEPARATOR);
  if (parts.length !== 3 || !parts.every((p) => PART.test(p))) return undefined;
  const [namespace, pack, command] = parts as [string, string, string];
  return { namespace, pack, command };
}
