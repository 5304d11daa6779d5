import { useState, type FormEvent } from 'react';
import { dataOf } from '@svc/client';
import { useSession } from '../app/session.js';
import { svc } from '../app/svc.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

/** The signed-in person's account: developer mode and organizations, and a new password. */
export function Account() {
  const { user, learned } = useSession();
  const mode = useLoad(() => dataOf(svc.api.GET('/api/v1/account/mode', {})));
  const organizations = useLoad(() => dataOf(svc.api.GET('/api/v1/account/organizations', {})));
  if (!user) return null;
  return (
    <section>
      <h1>Account</h1>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{user.email}</dd>
        <dt>Namespace</dt>
        <dd>{user.tenantSlug}</dd>
        <dt>Tier</dt>
        <dd>{user.subscriptionTier}</dd>
        <dt>Mode</dt>
        <dd data-testid="account-mode">{mode.data?.account_mode ?? '…'}</dd>
      </dl>
      <ErrorNote error={mode.error ?? organizations.error} />
      {mode.data?.account_mode === 'consumer' && (
        <DeveloperMode
          onDone={() => {
            mode.reload();
            organizations.reload();
            learned({ developerMode: true });
          }}
        />
      )}
      <h2>Organizations</h2>
      {organizations.data && organizations.data.organizations.length === 0 && <p>None yet.</p>}
      <ul>
        {organizations.data?.organizations.map((org) => (
          <li key={org.id}>
            {org.name} <span className="muted">({org.scope}, {org.role})</span>
          </li>
        ))}
      </ul>
      <ChangePassword />
    </section>
  );
}

/** Developer mode comes with an organization: its namespace is where packs and dashboards are published. */
function DeveloperMode({ onDone }: { onDone: () => void }) {
  const [org, setOrg] = useState({ name: '', slug: '' });
  const turnOn = useAction(async () => {
    await dataOf(svc.api.POST('/api/v1/account/developer-mode', { body: { organization: { name: org.name.trim(), slug: org.slug.trim() } } }));
    onDone();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void turnOn.run();
  };
  return (
    <section aria-labelledby="developer-heading">
      <h2 id="developer-heading">Developer mode</h2>
      <p className="muted">Publish packs and dashboards under an organization of your own.</p>
      <form onSubmit={submit} aria-label="Turn developer mode on">
        <Field label="Organization name" required value={org.name} onChange={(e) => setOrg({ ...org, name: e.target.value })} />
        <Field label="Organization namespace" required pattern="[a-z0-9][a-z0-9\-]*" value={org.slug} onChange={(e) => setOrg({ ...org, slug: e.target.value })} />
        <ErrorNote error={turnOn.error} />
        <button type="submit" disabled={turnOn.pending}>
          Turn developer mode on
        </button>
      </form>
    </section>
  );
}

/** A new password ends every session of the account, this one too: the person signs in again with it. */
function ChangePassword() {
  const { forget } = useSession();
  const [passwords, setPasswords] = useState({ current: '', next: '' });
  const change = useAction(async () => {
    await dataOf(svc.api.POST('/api/v1/auth/change-password', { body: { current_password: passwords.current, new_password: passwords.next } }));
    forget('Your password was changed and every session ended: sign in with the new one.');
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void change.run();
  };
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <p className="muted">Changing it signs you out everywhere: every device and client signs in again.</p>
      <form onSubmit={submit} aria-label="Change password">
        <Field label="Current password" type="password" autoComplete="current-password" required value={passwords.current} onChange={(e) => setPasswords({ ...passwords, current: e.target.value })} />
        <Field label="New password" type="password" autoComplete="new-password" required minLength={8} value={passwords.next} onChange={(e) => setPasswords({ ...passwords, next: e.target.value })} />
        <ErrorNote error={change.error} />
        <button type="submit" disabled={change.pending}>
          Change password and sign out everywhere
        </button>
      </form>
    </section>
  );
}
