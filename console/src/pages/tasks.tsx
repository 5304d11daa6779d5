import { Link, useSearchParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Table } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';

const STATUSES = ['pending', 'started', 'success', 'failure', 'timeout', 'revoked'] as const;
type Status = (typeof STATUSES)[number];

/** The caller's tasks, newest first, filtered by status (in the URL). */
export function Tasks() {
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s === params.get('status')) as Status | undefined;
  const { data, error } = useLoad(() => dataOf(svc.api.GET('/api/v1/tasks', { params: { query: { status, limit: 100 } } })), [status]);
  return (
    <section>
      <h1>Tasks</h1>
      <div className="field narrow">
        <label htmlFor="task-status">Status</label>
        <select id="task-status" value={status ?? ''} onChange={(event) => setParams(event.target.value ? { status: event.target.value } : {})}>
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </div>
      <ErrorNote error={error} />
      {data && data.tasks.length === 0 && <p>No tasks yet.</p>}
      {data && data.tasks.length > 0 && (
        <Table label="Tasks" columns={['Command', 'Status', 'Created']}>
          {data.tasks.map((task) => (
            <tr key={task.task_id}>
              <td>
                <Link to={`${CONSOLE_PATHS.tasks}/${task.task_id}`}>{task.command}</Link>
              </td>
              <td>{task.status}</td>
              <td>{new Date(task.created_at).toLocaleString()}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
