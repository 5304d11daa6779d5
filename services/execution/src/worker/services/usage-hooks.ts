import { z } from 'zod';
import { outboxEvent, type EventOutbox } from '@svc/bus';
import { LLM_MODEL_MAX, LLM_TOKENS_PER_REPORT_MAX } from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { Hooks } from '../runners/runner-process.js';
import type { PackManifests } from './pack-manifests.js';

const tokens = z.number().int().min(0).max(LLM_TOKENS_PER_REPORT_MAX);

const LlmArgs = z.strictObject({
  model: z
    .string()
    .min(1)
    .max(LLM_MODEL_MAX)
    .regex(/^[A-Za-z0-9._:/-]+$/, 'letters, digits and . _ : / - only'),
  input: tokens,
  output: tokens,
  /** The call went to the user's own provider key: a request, no platform tokens (Part 2, Limits). */
  byok: z.boolean().optional(),
});

/**
 * `ctx.usage.llm` for pack code: the tokens of one call to a language model, for the tenant the
 * run is for and the pack that ran (`@<namespace>/<name>`, its version); `byok: true` when the call
 * went to the user's own provider key, which usage counts as a request with no platform tokens. Published with confirms before the call resolves (what cannot be published waits in
 * the outbox), so that a report the pack saw succeed is counted; each report has its own event
 * id, which the usage read model counts once however often the bus delivers it. A run makes at
 * most `hookCallsPerCall` reports, like any other `ctx` call.
 */
export function usageHooks(events: EventOutbox, manifests: PackManifests): Hooks {
  return {
    'usage.llm': async (call, args) => {
      const { model, input, output, byok = false } = parseInput(LlmArgs, args, 'ctx.usage.llm');
      const { namespace, name, version } = (await manifests.of(call.packDir)).pack;
      const report = { command: `${namespace}.${call.command}`, pack: `@${namespace}/${name}`, version, tenant_id: call.tenant, user_id: call.user, model, input_tokens: input, output_tokens: output, byok };
      await events.publish([outboxEvent('llm.usage.reported', report, { correlationId: call.correlationId })]);
      return null;
    },
  };
}
