import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { Field } from '../ui/field.js';
import { Table } from '../ui/table.js';
import { TierSelect } from '../ui/tier-select.js';
import { usePages } from '../ui/use-pages.js';
import { dayStart } from '../ui/day-bounds.js';
import { when } from '../ui/when.js';

/** Rows a page of the list can hold (the API allows 1 to 200). */
const PAGE_SIZES = ['10', '50', '200'];

/**
 * Every account of the platform, newest first: filtered by tier, referral (the cohort of the
 * code they registered with) and joining day, kept in the URL; a page at a time; each opens its
 * user's page.
 */
export function Users() {
  const [params, setParams] = useSearchParams();
  const filters = { tier: params.get('tier') ?? '', referral: params.get('referral') ?? '', after: params.get('after') ?? '', per: params.get('per') ?? '50' };
  const [draft, setDraft] = useState(filters);
  // Back and forward change the address: the form shows its filters again.
  const shown = params.toString();
  useEffect(() => setDraft(filters), [shown]);
  const apply = (next: typeof filters) => setParams(Object.fromEntries(Object.entries({ ...next, referral: next.referral.trim() }).filter(([key, value]) => value && !(key === 'per' && value === '50'))));
  const users = usePages(async (cursor) => {
    const query = { tier: filters.tier || undefined, referral: filters.referral || undefined, created_after: dayStart(filters.after), limit: Number(filters.per), cursor };
    const page = await dataOf(svc.api.GET('/api/v1/admin/users', { params: { query } }));
    return { items: page.users, next: page.next_cursor };
  }, [filters.tier, filters.referral, filters.after, filters.per]);
  // A choice in a list applies at once; typed filters when the form is sent.
  const choose = (key: 'tier' | 'per') => (value: string) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    apply(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <form role="search" aria-label="Filter users" className="row" onSubmit={submit}>
        <TierSelect label="Tier" any="any" value={draft.tier} onChange={choose('tier')} />
        <Field label="Referral" hint="The cohort of their access code" maxLength={64} value={draft.referral} onChange={(e) => setDraft({ ...draft, referral: e.target.value })} />
        <Field label="Joined after" type="date" hint="From the start of that day (UTC)" value={draft.after} onChange={(e) => setDraft({ ...draft, after: e.target.value })} />
        <div className="field">
          <label htmlFor="users-per">Per page</label>
          <select id="users-per" value={draft.per} onChange={(e) => choose('per')(e.target.value)}>
            {PAGE_SIZES.map((size) => (
              <option key={size}>{size}</option>
            ))}
          </select>
        </div>
        <button type="submit">Filter users</button>
      </form>
      <ErrorNote error={users.error} />
      {users.items?.length === 0 && <p>No users match.</p>}
      {users.items && users.items.length > 0 && (
        <Table label="Users" columns={['E-mail', 'Tier', 'Referral', 'Subscription', 'Joined']}>
          {users.items.map((user) => (
            <tr key={user.user_id}>
              <td>
                <Link to={`${CONSOLE_PATHS.operators}/users/${user.user_id}`}>{user.email}</Link>
              </td>
              <td>{user.tier}</td>
              <td>{user.cohort}</td>
              <td>{user.subscription_status ?? '—'}</td>
              <td>{when(user.created_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      {users.hasMore && (
        <button type="button" onClick={users.more} disabled={users.loadingMore}>
          More users
        </button>
      )}
    </section>
  );
}
