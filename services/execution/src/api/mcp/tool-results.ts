import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunOutcome } from '@svc/contracts';

/** One text block holding the spec's JSON body; `isError` for the error bodies. */
export function textResult(body: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], ...(isError ? { isError: true } : {}) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The tool result of a run that ended, as the spec's envelope: `{result, correlation_id}`, or
 * `{error, type, correlation_id}` with `isError`. A command with an `output_schema` (`typed`)
 * also answers its result as `structuredContent`; the worker has checked it against the schema.
 */
export function outcomeResult(outcome: RunOutcome, correlationId: string, typed = false): CallToolResult {
  if (outcome.status === 'success') {
    const result = outcome.result ?? null;
    const answer = textResult({ result, correlation_id: correlationId });
    return typed && isPlainObject(result) ? { ...answer, structuredContent: result } : answer;
  }
  if (outcome.status === 'timeout') return textResult({ error: 'Command timed out', type: 'timeout', correlation_id: correlationId }, true);
  if (outcome.status === 'revoked') return textResult({ error: 'The task was cancelled', type: 'cancelled', correlation_id: correlationId }, true);
  if (outcome.error?.kind === 'command') return textResult({ error: outcome.error.message, type: 'command', correlation_id: correlationId }, true);
  return textResult({ error: 'Command failed', type: 'internal', correlation_id: correlationId }, true);
}
