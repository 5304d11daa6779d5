import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/use-action.js';

/**
 * Asks for a reset link. The page says the same thing whatever the address, as the platform does:
 * whether an account uses an address is not for anyone who types it to learn.
 */
export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const { run, pending, error } = useAction(async () => {
    await dataOf(svc.api.POST('/api/v1/auth/password-reset', { body: { email: email.trim() } }));
    setSentTo(email.trim());
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run();
  };
  return (
    <section className="narrow">
      <h1>Forgot your password?</h1>
      {sentTo ? (
        <p role="status">
          If an account uses {sentTo}, a link to choose a new password is on its way there. It works once, for an hour.
        </p>
      ) : (
        <form onSubmit={submit}>
          <Field label="E-mail" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <ErrorNote error={error} />
          <button type="submit" disabled={pending}>
            {pending ? 'Sending…' : 'Send me a link'}
          </button>
        </form>
      )}
      <p>
        <Link to={CONSOLE_PATHS.signIn}>Back to sign in</Link>
      </p>
    </section>
  );
}
