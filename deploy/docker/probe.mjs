/* global fetch, AbortSignal */
// A container health check without curl: exits 0 when GET <path> on this container answers 2xx.
//   node deploy/docker/probe.mjs /readyz          (port from PORT, else 8080)
//   node deploy/docker/probe.mjs /readyz 8090     (the execution worker's SVC_HEALTH_PORT)
const [path = '/readyz', port = process.env.PORT ?? '8080'] = process.argv.slice(2);

try {
  const reply = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) });
  process.exit(reply.ok ? 0 : 1);
} catch {
  process.exit(1);
}
