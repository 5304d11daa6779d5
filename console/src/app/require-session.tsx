import { Navigate, Outlet, useLocation } from 'react-router';
import { CONSOLE_PATHS } from '../paths.js';
import { useSession } from './session.js';

/** Pages for a signed-in person: others go to sign in, and come back to the page they asked for. */
export function RequireSession() {
  const { user } = useSession();
  const location = useLocation();
  if (user === undefined) return <p role="status">Loading…</p>;
  if (user === null) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`${CONSOLE_PATHS.signIn}?next=${next}`} replace />;
  }
  return <Outlet />;
}
