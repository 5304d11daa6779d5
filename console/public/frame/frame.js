// The platform's frame page, on the dashboard origin: it mounts one dashboard, in a sandbox with
// an opaque origin, for the console that frames it. It holds no credential: the bundle's files
// are read with the view token in their URL, and everything else goes to the console by
// postMessage, which decides what the dashboard may do and calls the API itself.
const SDK_VERSION = '1.0.0';
const params = new URLSearchParams(location.hash.slice(1));
const element = document.getElementById('root');
const waiting = new Map();
let nextId = 0;

const tell = (message) => parent.postMessage({ svc: 'dashboard', ...message }, '*');

function ask(kind, payload) {
  return new Promise((resolve, reject) => {
    nextId += 1;
    waiting.set(nextId, { resolve, reject });
    tell({ kind, id: nextId, ...payload });
  });
}

let unmount = () => {};

addEventListener('message', (event) => {
  const message = event.data;
  if (event.source !== parent || message?.svc !== 'console') return;
  if (message.kind === 'unmount') {
    unmount();
    tell({ kind: 'unmounted' });
    return;
  }
  const pending = waiting.get(message.id);
  if (!pending) return;
  waiting.delete(message.id);
  if (message.error) pending.reject(Object.assign(new Error(message.error.message), { code: message.error.code, status: message.error.status }));
  else pending.resolve(message.result);
});

const run = (command, input = {}) => ask('run', { command, input });
/** The CLI's dev host gives `request(path, init)`; here it only reaches command runs, as `run` does. */
const request = async (path, init = {}) => {
  const match = /^\/api\/v1\/commands\/([^/]+)\/([^/?]+)$/.exec(path);
  if (!match || (init.method ?? 'GET').toUpperCase() !== 'POST') throw Object.assign(new Error(`A dashboard may only run commands (${path})`), { code: 'PERMISSION_DENIED', status: 403 });
  const result = await run(`${match[1]}/${match[2]}`, init.body ? JSON.parse(init.body) : {});
  return { success: true, data: { result } };
};

async function start() {
  const entry = params.get('entry');
  if (!entry || new URL(entry, location.href).origin !== location.origin) throw new Error('no dashboard entry point on this origin');
  const dashboard = { name: params.get('name') ?? '', namespace: params.get('namespace') ?? '', version: params.get('version') ?? '' };
  const context = { sdkVersion: SDK_VERSION, dashboard, api: { baseUrl: null, request, run } };
  const module = await import(entry);
  await module.mount(element, context);
  let mounted = true;
  unmount = () => {
    if (mounted) module.unmount?.(element);
    mounted = false;
  };
  // The console asks before it leaves the page; a reload or a closed tab gives no time to ask.
  addEventListener('pagehide', () => unmount());
  tell({ kind: 'mounted' });
}

start().catch((error) => tell({ kind: 'failed', message: String(error?.message ?? error) }));
