import { useSession } from '../app/session.js';
import { AccessCodes } from './access-codes.js';
import { Users } from './users.js';

/** The operators' area (platform admins and the owner): access codes and users. */
export function Operators() {
  const { user } = useSession();
  const operator = user?.role === 'owner' || user?.role === 'admin';
  return (
    <section>
      <h1>Operators</h1>
      {operator ? (
        <>
          <AccessCodes />
          <Users />
        </>
      ) : (
        <p>This area is for the platform’s operators.</p>
      )}
    </section>
  );
}
