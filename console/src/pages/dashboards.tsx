import { Link } from 'react-router';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { useLoad } from '../ui/use-load.js';

/** The dashboards the caller may see: public ones, their tenant's, and those granted to them. */
export function Dashboards() {
  const { data, error } = useLoad(() => svc.dashboards.list());
  return (
    <section>
      <h1>Dashboards</h1>
      <ErrorNote error={error} />
      {data && data.length === 0 && <p>No dashboards yet.</p>}
      {data && (
        <ul className="cards">
          {data.map((dashboard) => (
            <li key={dashboard.id}>
              <Link to={`${CONSOLE_PATHS.dashboards}/${dashboard.slug}`}>{dashboard.name}</Link>
              <p>{dashboard.description}</p>
              <small className="muted">
                @{dashboard.scope} · {dashboard.visibility} · {dashboard.version ?? 'no version yet'}
              </small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
