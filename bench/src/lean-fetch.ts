import { setMaxListeners } from 'node:events';
import { Agent, request } from 'node:http';

/**
 * A `fetch` for the MCP SDK client's transport over plain `http` with kept-alive sockets, as
 * autocannon uses for the REST figures. Node's built-in fetch (undici, web streams) costs the
 * load generator twice the CPU per call (about 0.8 ms against 0.4) on the two cores the fleet
 * needs too, which would measure the client rather than the MCP path.
 */
export function leanFetch(connections: number): typeof fetch {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const body = typeof init.body === 'string' ? init.body : undefined;
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const signal = init.signal ?? undefined;
      // Every call in flight listens on the transport's one signal until it is answered.
      if (signal) setMaxListeners(0, signal);
      const req = request({ agent, hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: init.method ?? 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', failed);
        res.on('end', () => {
          signal?.removeEventListener('abort', abort);
          const replyHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) replyHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 0;
          // A Response may not carry a body with 204 or 304.
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: replyHeaders }));
        });
      });
      const abort = () => req.destroy(new Error('aborted'));
      signal?.addEventListener('abort', abort, { once: true });
      const failed = (err: Error) => {
        signal?.removeEventListener('abort', abort);
        reject(err);
      };
      req.on('error', failed);
      req.end(body);
    });
}
