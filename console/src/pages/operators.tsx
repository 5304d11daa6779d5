import { Link } from 'react-router';
import { useSession } from '../app/session.js';
import { CONSOLE_PATHS } from '../paths.js';
import { AccessCodes } from './access-codes.js';
import { Users } from './users.js';

/** The operators' area (platform admins and the owner): access codes and users, links to metrics and (the owner's) the audit log. */
export function Operators() {
  const { user } = useSession();
  const operator = user?.role === 'owner' || user?.role === 'admin';
  return (
    <section>
      <h1>Operators</h1>
      {operator ? (
        <>
          <nav aria-label="Operators">
            <Link to={`${CONSOLE_PATHS.operators}/metrics`}>Metrics</Link>
            {user.role === 'owner' && (
              <>
                {' · '}
                <Link to={`${CONSOLE_PATHS.operators}/audit-log`}>Audit log</Link>
              </>
            )}
          </nav>
          <AccessCodes />
          <Users />
        </>
      ) : (
        <p>This area is for the platform’s operators.</p>
      )}
    </section>
  );
}
