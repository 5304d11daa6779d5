import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { isTerminal, type Task as TaskView } from '@svc/client';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { useAction } from '../ui/use-action.js';

/** How often a running task is read again: its logs appear as they are written. */
const POLL_MS = 1000;

/** A task followed to its end: status, progress, logs as they come, its result or error, and a cancel button while it runs. */
export function Task() {
  const { taskId = '' } = useParams();
  const [task, setTask] = useState<TaskView | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const next = await svc.tasks.get(taskId);
        if (!live) return;
        setTask(next);
        setError(undefined);
        if (!isTerminal(next.status)) timer = setTimeout(read, POLL_MS);
      } catch (err) {
        if (live) setError(err);
      }
    };
    void read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [taskId]);

  const cancel = useAction(async () => {
    await svc.tasks.cancel(taskId);
  });

  if (!task) return error ? <ErrorNote error={error} /> : <p role="status">Loading…</p>;
  const done = isTerminal(task.status);
  return (
    <section>
      <h1>Task</h1>
      <dl className="facts">
        <dt>Id</dt>
        <dd className="code">{task.task_id}</dd>
        <dt>Status</dt>
        <dd>
          <span role="status" data-testid="task-status">
            {task.status}
          </span>
        </dd>
        {task.progress && (
          <>
            <dt>Progress</dt>
            <dd>
              <progress max={task.progress.total ?? undefined} value={task.progress.done} aria-label="Progress" /> {task.progress.message}
            </dd>
          </>
        )}
        <dt>Started</dt>
        <dd>{task.started_at ? new Date(task.started_at).toLocaleString() : '—'}</dd>
        <dt>Finished</dt>
        <dd>{task.completed_at ? new Date(task.completed_at).toLocaleString() : '—'}</dd>
      </dl>
      {!done && (
        <button type="button" className="danger" onClick={() => void cancel.run()} disabled={cancel.pending}>
          Cancel task
        </button>
      )}
      <ErrorNote error={cancel.error ?? error} />
      <h2>Logs</h2>
      <pre aria-label="Logs" data-testid="logs">
        {task.logs.map((line) => `${line.at} ${line.level} ${line.message}`).join('\n') || 'No logs yet.'}
      </pre>
      {task.status === 'success' && (
        <>
          <h2>Result</h2>
          <pre data-testid="result">{JSON.stringify(task.result, null, 2)}</pre>
        </>
      )}
      {task.error && (
        <p role="alert" className="error">
          {task.error.type}: {task.error.message}
        </p>
      )}
    </section>
  );
}
