import { secretsEqual } from '@svc/auth';
import type { AddressInfo } from 'node:net';
import ssh2, { type Connection, type ParsedKey, type ServerChannel } from 'ssh2';

/** What the test server does for a command: `echo …`, `fail` (stderr, exit 3), `sleep <s>`, `flood <bytes>`. */
function runCommand(command: string, channel: ServerChannel): void {
  const [verb, ...rest] = command.split(' ');
  const end = (code: number) => {
    channel.exit(code);
    channel.end();
  };
  if (verb === 'echo') {
    channel.write(`${rest.join(' ')}\n`);
    return end(0);
  }
  if (verb === 'fail') {
    channel.stderr.write('it failed\n');
    return end(3);
  }
  if (verb === 'sleep') {
    const timer = setTimeout(() => end(0), Number(rest[0]) * 1000);
    channel.on('close', () => clearTimeout(timer));
    return;
  }
  if (verb === 'flood') {
    channel.write(Buffer.alloc(Number(rest[0]), 'x'));
    return end(0);
  }
  channel.stderr.write(`unknown command: ${verb}\n`);
  end(127);
}


/**
 * An SSH server of ssh2's own (not OpenSSH) on a loopback port: one user, with a password or a
 * public key, a few fixed commands (no shell).
 */
export class Ssh2TestServer {
  readonly #server: InstanceType<typeof ssh2.Server>;
  readonly #connections = new Set<Connection>();
  #accepted = 0;
  port = 0;

  private constructor(hostKey: string, user: { username: string; password?: string; publicKey?: string }) {
    const allowedKey = user.publicKey ? (ssh2.utils.parseKey(user.publicKey) as ParsedKey) : undefined;
    this.#server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
      this.#accepted += 1;
      this.#connections.add(client);
      client.on('close', () => this.#connections.delete(client));
      client.on('error', () => undefined);
      client.on('authentication', (ctx) => {
        if (ctx.username !== user.username) return ctx.reject();
        if (ctx.method === 'password' && user.password !== undefined && secretsEqual(ctx.password, user.password)) return ctx.accept();
        if (ctx.method === 'publickey' && allowedKey && secretsEqual(ctx.key.data, allowedKey.getPublicSSH())) {
          if (!ctx.signature) return ctx.accept();
          if (allowedKey.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
        }
        ctx.reject(['password', 'publickey']);
      });
      client.on('ready', () => {
        client.on('session', (accept) => {
          const session = accept();
          session.on('exec', (acceptExec, _reject, info) => runCommand(info.command, acceptExec()));
        });
      });
    });
  }

  static async start(hostKey: string, user: { username: string; password?: string; publicKey?: string }): Promise<Ssh2TestServer> {
    const server = new Ssh2TestServer(hostKey, user);
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.port = (server.#server.address() as AddressInfo).port;
    return server;
  }

  /** Connections open now. */
  get connections(): number {
    return this.#connections.size;
  }

  /** Connections ever accepted: whether anything reached the server at all. */
  get accepted(): number {
    return this.#accepted;
  }

  async close(): Promise<void> {
    for (const connection of this.#connections) connection.end();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
