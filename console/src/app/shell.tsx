import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { CONSOLE_PATHS as P } from '../paths.js';
import { RateLimitNote } from './rate-limit-note.js';
import { useSession } from './session.js';

/** The frame of every page: a skip link, the navigation for who is signed in, and the page. */
export function Shell() {
  const { user, signOut } = useSession();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  const shown = useRef<string | undefined>(undefined);
  // Moving to another page moves focus to its content, so that keyboard and screen-reader users
  // start there; the first page loaded starts at the top, at the skip link, as any page does.
  useEffect(() => {
    if (shown.current !== undefined && shown.current !== location.pathname) main.current?.focus();
    shown.current = location.pathname;
  }, [location.pathname]);
  const operator = user?.role === 'owner' || user?.role === 'admin';
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to={P.home} className="brand">
          svc
        </Link>
        {user && (
          <nav aria-label="Main">
            <NavLink to={P.commands}>Commands</NavLink>
            <NavLink to={P.tasks}>Tasks</NavLink>
            <NavLink to={P.packs}>Packs</NavLink>
            <NavLink to={P.dashboards}>Dashboards</NavLink>
            <NavLink to={P.storage}>Storage</NavLink>
            <NavLink to={P.usage}>Usage</NavLink>
            <NavLink to={P.apiKeys}>API keys</NavLink>
            <NavLink to={P.packSecrets}>Secrets</NavLink>
            <NavLink to={P.webhooks}>Webhooks</NavLink>
            <NavLink to={P.sshTargets}>SSH</NavLink>
            <NavLink to={P.billing}>Billing</NavLink>
            <NavLink to={P.account}>Account</NavLink>
            {operator && <NavLink to={P.operators}>Operators</NavLink>}
          </nav>
        )}
        {user && (
          <div className="who">
            <span>{user.email}</span>
            <button type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <RateLimitNote />
        <Outlet />
      </main>
    </>
  );
}
