import { useMemo } from 'react';
import { useParams } from 'react-router';
import { dataOf } from '@svc/client';
import { useSession } from '../app/session.js';
import { svc } from '../app/svc.js';
import { CommandBridge } from '../dashboards/command-bridge.js';
import { DashboardFrame } from '../dashboards/dashboard-frame.js';
import { ErrorNote } from '../ui/error-note.js';
import { useLoad } from '../ui/use-load.js';

/** A dashboard opened by its share link, with or without an account: the link is the credential for its files. */
export function SharedDashboard() {
  const { token = '' } = useParams();
  const { user } = useSession();
  const { data, error } = useLoad(() => dataOf(svc.api.GET('/api/v1/shared-dashboards/{token}', { params: { path: { token } } })), [token]);
  const bridge = useMemo(() => data && new CommandBridge(data, !!user), [data, user]);
  if (error) return <ErrorNote error={error} />;
  if (!data || !bridge || user === undefined) return <p role="status">Loading…</p>;
  return (
    <section>
      <h1>{data.name}</h1>
      <p>{data.description}</p>
      {data.entryPoint && data.version ? (
        <DashboardFrame mountable={{ entryPoint: data.entryPoint, name: data.name, namespace: data.scope, version: data.version }} bridge={bridge} />
      ) : (
        <p>This dashboard has no version to show yet.</p>
      )}
    </section>
  );
}
