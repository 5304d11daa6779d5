import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useSession } from '../app/session.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/use-action.js';

/** Where to go after signing in: the page asked for, if it is one of ours (never another site). */
export function nextPath(params: URLSearchParams): string {
  const next = params.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : CONSOLE_PATHS.home;
}

export function SignIn() {
  const { user, signIn, notice } = useSession();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { run, pending, error } = useAction(() => signIn(email, password));
  if (user) return <Navigate to={nextPath(params)} replace />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return (
    <section className="narrow">
      <h1>Sign in</h1>
      {notice && <p role="status">{notice}</p>}
      <form onSubmit={submit}>
        <Field label="E-mail" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorNote error={error} />
        <button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link to={CONSOLE_PATHS.forgotPassword}>Forgot your password?</Link>
      </p>
      <p>
        New here? <Link to={CONSOLE_PATHS.register}>Register with an access code</Link>
      </p>
    </section>
  );
}
