import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TaskRow } from '../../core/repositories/task.repository.js';
import { mcpTaskOf, TASK_POLL_INTERVAL_MS } from './mcp-task-store.js';

const created = new Date('2026-11-27T09:00:00Z');

function row(overrides: Partial<TaskRow>): TaskRow {
  return {
    id: randomUUID(),
    userId: randomUUID(),
    tenantId: randomUUID(),
    namespace: 'acme',
    command: 'index',
    packId: randomUUID(),
    packName: 'tools',
    packVersion: '1.0.0',
    packVersionId: randomUUID(),
    entry: 'commands/index.js',
    queue: 'long',
    status: 'pending',
    async: true,
    input: {},
    result: null,
    error: null,
    attempts: 0,
    maxRetries: 0,
    timeoutMs: 60_000,
    durationMs: null,
    correlationId: randomUUID(),
    createdAt: created,
    startedAt: null,
    completedAt: null,
    resultExpiresAt: null,
    resultPurged: false,
    leaseOwner: null,
    leaseExpiresAt: null,
    progress: null,
    scheduleId: null,
    scheduledFor: null,
    logs: null,
    ...overrides,
  };
}

describe('a task as MCP Tasks shows it', () => {
  it('maps our states onto the protocol states, by the same id', () => {
    const statuses = (['pending', 'started', 'success', 'failure', 'timeout', 'revoked'] as const).map((status) => mcpTaskOf(row({ status }), 1000).status);
    expect(statuses).toEqual(['working', 'working', 'completed', 'failed', 'failed', 'cancelled']);
    const task = row({});
    expect(mcpTaskOf(task, 86_400_000)).toEqual({ taskId: task.id, status: 'working', ttl: 86_400_000, createdAt: created.toISOString(), lastUpdatedAt: created.toISOString(), pollInterval: TASK_POLL_INTERVAL_MS });
  });

  it("says how far a running task is from its command's last progress report", () => {
    expect(mcpTaskOf(row({ status: 'started', progress: { done: 2, total: 5, message: 'indexing' } }), 1).statusMessage).toBe('indexing (2/5)');
    expect(mcpTaskOf(row({ status: 'started', progress: { done: 7 } }), 1).statusMessage).toBe('7');
    expect(mcpTaskOf(row({ status: 'success', progress: { done: 5, total: 5 } }), 1).statusMessage).toBeUndefined();
  });

  it("gives a command's own failure its message, and any other failure a generic one", () => {
    expect(mcpTaskOf(row({ status: 'failure', error: { type: 'TypeError', message: 'bad input', kind: 'command' } }), 1).statusMessage).toBe('bad input');
    expect(mcpTaskOf(row({ status: 'failure', error: { type: 'InternalError', message: 'database password wrong', kind: 'internal' } }), 1).statusMessage).toBe('Command failed');
    expect(mcpTaskOf(row({ status: 'timeout' }), 1).statusMessage).toBe('Command timed out');
  });
});
