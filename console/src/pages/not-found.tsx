import { Link } from 'react-router';
import { CONSOLE_PATHS } from '../paths.js';

export function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link to={CONSOLE_PATHS.home}>Back to the start</Link>
      </p>
    </section>
  );
}
