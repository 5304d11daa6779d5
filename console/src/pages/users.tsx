import { useState } from 'react';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { TIERS } from '../ui/tier-select.js';
import { ErrorNote } from '../ui/error-note.js';
import { Table } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';

/** Every account of the platform, newest first, by tier. */
export function Users() {
  const [tier, setTier] = useState('');
  const { data, error } = useLoad(() => dataOf(svc.api.GET('/api/v1/admin/users', { params: { query: { tier: tier || undefined, limit: 100 } } })), [tier]);
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <div className="field narrow">
        <label htmlFor="users-tier">Tier</label>
        <select id="users-tier" value={tier} onChange={(e) => setTier(e.target.value)}>
          <option value="">any</option>
          {TIERS.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </div>
      <ErrorNote error={error} />
      {data && (
        <Table label="Users" columns={['E-mail', 'Tier', 'Cohort', 'Subscription', 'Joined']}>
          {data.users.map((user) => (
            <tr key={user.user_id}>
              <td>{user.email}</td>
              <td>{user.tier}</td>
              <td>{user.cohort}</td>
              <td>{user.subscription_status ?? '—'}</td>
              <td>{new Date(user.created_at).toLocaleString()}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
