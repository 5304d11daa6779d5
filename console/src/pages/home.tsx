import { Link } from 'react-router';
import { useSession } from '../app/session.js';
import { CONSOLE_PATHS } from '../paths.js';

export function Home() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <section>
      <h1>Welcome, {user.name || user.email}</h1>
      <dl className="facts">
        <dt>Account</dt>
        <dd>{user.tenantSlug}</dd>
        <dt>Tier</dt>
        <dd data-testid="home-tier">{user.subscriptionTier}</dd>
        <dt>Developer mode</dt>
        <dd data-testid="home-developer-mode">{user.developerMode ? 'on' : 'off'}</dd>
      </dl>
      <p>
        <Link to={CONSOLE_PATHS.commands}>Browse commands</Link>
      </p>
    </section>
  );
}
