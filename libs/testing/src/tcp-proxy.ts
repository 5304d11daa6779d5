import net from 'node:net';

/** A TCP forwarder whose connections a test can cut or hold, to play a server going away or stalling. */
export interface TcpProxy {
  readonly port: number;
  /** Destroys every proxied connection and refuses new ones until `resume()`. */
  cut(): void;
  resume(): void;
  /** Forwards nothing more, keeping every connection open: a server that has stalled. */
  hold(): void;
  /** Forwards again what `hold()` held back. */
  release(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepting = true;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    track(client);
    if (!accepting) return client.destroy();
    const upstream = net.connect(target);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');

  return {
    port: address.port,
    cut() {
      accepting = false;
      for (const socket of sockets) socket.destroy();
    },
    resume() {
      accepting = true;
    },
    hold() {
      for (const socket of sockets) socket.pause();
    },
    release() {
      for (const socket of sockets) socket.resume();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
