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

export const EVENTS = {
  'user.registered': UserRegistered,
  'password.changed': PasswordChanged,
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<N extends EventName> = z.infer<(typeof EVENTS)[N]>;
