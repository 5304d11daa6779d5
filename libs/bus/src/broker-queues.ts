import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The names of the broker's queues that start with `prefix`, whoever declared them, or undefined
 * when they cannot be listed. AMQP itself cannot list queues, so this asks `rabbitmqctl`, which
 * talks to the node on this machine: only a broker on this machine is listed (another host's
 * list would be the wrong one), and only where the user may run it (it reads the Erlang cookie).
 */
export async function listBrokerQueues(url: string, prefix: string): Promise<string[] | undefined> {
  const { hostname, pathname } = new URL(url);
  if (!LOCAL_HOSTS.has(hostname)) return undefined;
  // As amqplib reads it: the path without its slash, else the default virtual host.
  const vhost = decodeURIComponent(pathname.slice(1)) || '/';
  const listed = await run('rabbitmqctl', ['list_queues', '--quiet', '--no-table-headers', '--vhost', vhost, 'name'], { timeout: 30_000 }).catch(() => undefined);
  return listed?.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((name) => name.length > 0 && name.startsWith(prefix));
}
