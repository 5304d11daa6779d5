import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { dataOf } from '@svc/client';
import { useSession } from '../app/session.js';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/use-action.js';

/** The page a reset link opens (`?token=`): a new password, then sign in with it, since every session has ended. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const { forget } = useSession();
  const navigate = useNavigate();
  const { run, pending, error } = useAction(async () => {
    await dataOf(svc.api.POST('/api/v1/auth/password-reset/confirm', { body: { token, password } }));
    forget('Your password is changed and every session ended: sign in with the new one.');
    await navigate(CONSOLE_PATHS.signIn, { replace: true });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return (
    <section className="narrow">
      <h1>Choose a new password</h1>
      {token ? (
        <form onSubmit={submit}>
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={72}
            hint="8 to 72 characters. Every session ends when it is set."
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <ErrorNote error={error} />
          <button type="submit" disabled={pending}>
            {pending ? 'Saving…' : 'Set the new password'}
          </button>
        </form>
      ) : (
        <p role="alert" className="error">
          This page needs the link from the e-mail.
        </p>
      )}
      <p>
        A link that has expired or was used? <Link to={CONSOLE_PATHS.forgotPassword}>Ask for another</Link>
      </p>
    </section>
  );
}
