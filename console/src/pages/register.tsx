import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { buyAccessCode, usePaidSession } from '../app/paid-registration.js';
import { useSession } from '../app/session.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/use-action.js';

export function Register() {
  const { user, register } = useSession();
  const [params] = useSearchParams();
  const [form, setForm] = useState({ email: '', password: '', slug: '', access_code: params.get('code') ?? '' });
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });
  const { run, pending, error } = useAction(() => register({ ...form, access_code: form.access_code.trim() }));
  const buy = useAction(buyAccessCode);
  const paid = usePaidSession(params.get('session_id'));
  const ready = paid.session?.status === 'ready' ? paid.session : undefined;
  // The code bought (and the address it was sent to) fill the form once the payment has arrived.
  useEffect(() => {
    if (ready) setForm((current) => ({ ...current, access_code: ready.code, email: current.email || ready.email }));
  }, [ready]);
  if (user) return <Navigate to={CONSOLE_PATHS.home} replace />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return (
    <section className="narrow">
      <h1>Register</h1>
      <PaidStatus session={paid.session} error={paid.error} />
      <form onSubmit={submit}>
        <Field label="Access code" hint="SVC-XXXX-XXXX, from an operator or a paid registration" required autoComplete="off" value={form.access_code} onChange={set('access_code')} />
        <Field label="E-mail" type="email" autoComplete="email" required value={form.email} onChange={set('email')} />
        <Field label="Password" type="password" autoComplete="new-password" required minLength={8} value={form.password} onChange={set('password')} />
        <Field label="Account name" hint="Lower-case letters, digits and dashes: your namespace" required pattern="[a-z0-9][a-z0-9\-]*" value={form.slug} onChange={set('slug')} />
        <ErrorNote error={error} />
        <button type="submit" disabled={pending}>
          {pending ? 'Registering…' : 'Register'}
        </button>
      </form>
      <p>
        No code?{' '}
        <button type="button" className="secondary" onClick={() => void buy.run()} disabled={buy.pending}>
          Buy an access code
        </button>
      </p>
      <ErrorNote error={buy.error} />
      <p>
        Already registered? <Link to={CONSOLE_PATHS.signIn}>Sign in</Link>
      </p>
    </section>
  );
}

function PaidStatus({ session, error }: ReturnType<typeof usePaidSession>) {
  if (error) return <ErrorNote error={error} />;
  if (!session) return null;
  const text = {
    pending: 'Waiting for your payment to arrive…',
    ready: 'Payment received: your access code is filled in below.',
    expired: 'That checkout was not completed. You can start again.',
    disputed: 'That payment was disputed, so its code no longer works.',
  }[session.status];
  return (
    <p role="status" className={session.status === 'ready' ? undefined : 'muted'}>
      {text}
    </p>
  );
}
