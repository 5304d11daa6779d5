import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CommandBridge } from '../dashboards/command-bridge.js';
import { DashboardFrame } from '../dashboards/dashboard-frame.js';
import { CONSOLE_PATHS } from '../paths.js';
import { ErrorNote } from '../ui/error-note.js';
import { useAction } from '../ui/use-action.js';
import { useLoad } from '../ui/use-load.js';

/**
 * A dashboard by slug, mounted for the signed-in viewer: a view token (one dashboard's files,
 * an hour, ended with the session) is minted each time the page opens, never the viewer's own
 * credentials.
 */
export function Dashboard() {
  const { slug = '' } = useParams();
  const { data, error } = useLoad(async () => {
    const dashboard = await svc.dashboards.get(slug);
    const view = await dataOf(svc.api.POST('/api/v1/dashboards/{slug}/view-tokens', { params: { path: { slug } } }));
    return { dashboard, view };
  }, [slug]);
  const bridge = useMemo(() => data && new CommandBridge(data.dashboard, true), [data]);
  const [shareUrl, setShareUrl] = useState<string | undefined>(undefined);
  const share = useAction(async () => {
    const created = await dataOf(svc.api.POST('/api/v1/dashboards/{dashboard_id}/shares', { params: { path: { dashboard_id: data!.dashboard.id } }, body: { expires: '7d' } }));
    setShareUrl(`${window.location.origin}${CONSOLE_PATHS.shared}/${created.token}`);
  });

  if (error) return <ErrorNote error={error} />;
  if (!data || !bridge) return <p role="status">Loading…</p>;
  const { dashboard, view } = data;
  return (
    <section>
      <h1>{dashboard.name}</h1>
      <p>{dashboard.description}</p>
      <p className="muted">
        @{dashboard.scope} · {dashboard.visibility} · version {dashboard.version ?? '—'}
      </p>
      <button type="button" className="secondary" onClick={() => void share.run()} disabled={share.pending}>
        Create a share link
      </button>
      <ErrorNote error={share.error} />
      {shareUrl && (
        <p>
          Share link (7 days): <a href={shareUrl}>{shareUrl}</a>
        </p>
      )}
      {view.entryPoint && view.version ? (
        <DashboardFrame mountable={{ entryPoint: view.entryPoint, name: dashboard.name, namespace: dashboard.scope, version: view.version }} bridge={bridge} />
      ) : (
        <p>This dashboard has no version to show yet.</p>
      )}
    </section>
  );
}
