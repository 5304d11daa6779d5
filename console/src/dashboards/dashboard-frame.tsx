import { useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { bridgeErrorOf, type CommandBridge } from './command-bridge.js';

/** What the frame page needs to mount a dashboard: its entry point (on the dashboard origin) and who it is. */
export interface Mountable {
  entryPoint: string;
  name: string;
  namespace: string;
  version: string;
}

/**
 * A dashboard mounted in the platform's frame page on the dashboard origin, sandboxed without
 * `allow-same-origin`: its origin is opaque, it shares nothing with the console or with other
 * dashboards, and its only way out is `postMessage` to this component, which answers messages
 * from that frame alone.
 */
export function DashboardFrame({ mountable, bridge }: { mountable: Mountable; bridge: CommandBridge }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<{ mounted: boolean; failed?: string }>({ mounted: false });
  const entry = new URL(mountable.entryPoint);
  const src = `${entry.origin}/frame#${new URLSearchParams({ entry: mountable.entryPoint, name: mountable.name, namespace: mountable.namespace, version: mountable.version })}`;

  // Leaving the page removes the frame: first the dashboard's `unmount` runs, told by message
  // (at most a second's wait for its answer), while its document is still there.
  const unmounted = useRef<() => void>(() => undefined);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => state.mounted && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let left = false;
    const leave = () => {
      if (!left) blocker.proceed();
      left = true;
    };
    unmounted.current = leave;
    frame.current?.contentWindow?.postMessage({ svc: 'console', kind: 'unmount' }, '*');
    const timer = setTimeout(leave, 1000);
    return () => clearTimeout(timer);
  }, [blocker]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // A sandboxed frame's messages come from the origin "null": who sent it is told by the window.
      const source = frame.current?.contentWindow;
      if (!source || event.source !== source || event.origin !== 'null') return;
      const message = event.data as { svc?: string; kind?: string; id?: number; command?: unknown; input?: unknown; message?: string };
      if (message?.svc !== 'dashboard') return;
      if (message.kind === 'mounted') return setState({ mounted: true });
      if (message.kind === 'failed') return setState({ mounted: false, failed: String(message.message) });
      if (message.kind === 'unmounted') return unmounted.current();
      if (message.kind !== 'run' || typeof message.id !== 'number') return;
      const id = message.id;
      bridge.run(message.command, message.input).then(
        (result) => source.postMessage({ svc: 'console', id, result }, '*'),
        (err: unknown) => source.postMessage({ svc: 'console', id, error: bridgeErrorOf(err) }, '*'),
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [bridge]);

  return (
    <>
      <p role="status" className="muted">
        {state.failed ? '' : state.mounted ? 'Dashboard loaded.' : 'Loading the dashboard…'}
      </p>
      {state.failed && (
        <p role="alert" className="error">
          The dashboard failed to start: {state.failed}
        </p>
      )}
      <iframe ref={frame} className="frame" title={`Dashboard ${mountable.name}`} src={src} sandbox="allow-scripts allow-forms allow-popups allow-modals allow-downloads" referrerPolicy="no-referrer" />
    </>
  );
}
