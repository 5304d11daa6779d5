/**
 * Names of the facts published on the bus, `<entity>.<past-verb>`. Payload schemas live
 * beside their names so publishers and subscribers share one definition.
 */
import { z } from 'zod';

export const UserRegistered = z.object({
  user_id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  tier: z.string(),
  access_code_id: z.string(),
  cohort: z.string(),
});

export const PasswordChanged = z.object({ user_id: z.string() });


/** Emitted by the registry when a pack version becomes active; `tenant_id` owns the pack. */
export const PackInstalled = z.object({
  pack_id: z.string(),
  tenant_id: z.string(),
  namespace: z.string(),
  name: z.string(),
  version: z.string(),
  commands: z.array(z.string()),
});

export const PackUninstalled = z.object({
  pack_id: z.string(),
  tenant_id: z.string(),
  namespace: z.string(),
  name: z.string(),
});

/** Batched by the gateway: when each API key was last seen, so identity writes once per batch. */
export const ApiKeysUsed = z.object({ keys: z.array(z.object({ id: z.string(), at: z.string() })) });

export const EVENTS = {
  'user.registered': UserRegistered,
  'password.changed': PasswordChanged,
  'pack.installed': PackInstalled,
  'pack.uninstalled': PackUninstalled,
  'api-key.used': ApiKeysUsed,
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<N extends EventName> = z.infer<(typeof EVENTS)[N]>;
