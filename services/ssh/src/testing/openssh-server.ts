import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@svc/testing';

const run = promisify(execFile);
export const SSHD = '/usr/sbin/sshd';

/** A key pair made by ssh-keygen: the private key file's text and the public key line. */
export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

/** A new key pair from ssh-keygen (`args` choose type and format; `-N` sets a passphrase). */
export async function generateKeyPair(dir: string, args: readonly string[], passphrase = ''): Promise<KeyPair> {
  const file = join(dir, `key-${Math.random().toString(36).slice(2)}`);
  await run('ssh-keygen', ['-q', ...args, '-N', passphrase, '-C', 'svc-test', '-f', file]);
  return { privateKey: await readFile(file, 'utf8'), publicKey: (await readFile(`${file}.pub`, 'utf8')).trim() };
}

/**
 * An Ed25519 key in PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), as `openssl genpkey -algorithm
 * ed25519` writes it; ssh-keygen writes Ed25519 keys only in its own format. The public key line
 * is built from the raw key, as OpenSSH writes it.
 */
export function generateEd25519Pkcs8(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const string = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([string(Buffer.from('ssh-ed25519')), string(raw)]);
  return { privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey: `ssh-ed25519 ${blob.toString('base64')} svc-test` };
}

/** Key types and formats the ssh service must read (Part 2: RSA, Ed25519, ECDSA; OpenSSH or PEM), PKCS#8 PEM among them. */
export const KEY_KINDS: ReadonlyArray<{ label: string; generate: (dir: string) => Promise<KeyPair> }> = [
  { label: 'Ed25519 (OpenSSH)', generate: (dir) => generateKeyPair(dir, ['-t', 'ed25519']) },
  { label: 'Ed25519 (PKCS#8)', generate: async () => generateEd25519Pkcs8() },
  { label: 'RSA (OpenSSH)', generate: (dir) => generateKeyPair(dir, ['-t', 'rsa', '-b', '2048']) },
  { label: 'RSA (PEM, PKCS#1)', generate: (dir) => generateKeyPair(dir, ['-t', 'rsa', '-b', '2048', '-m', 'PEM']) },
  { label: 'RSA (PKCS#8)', generate: (dir) => generateKeyPair(dir, ['-t', 'rsa', '-b', '2048', '-m', 'PKCS8']) },
  { label: 'ECDSA P-256 (OpenSSH)', generate: (dir) => generateKeyPair(dir, ['-t', 'ecdsa', '-b', '256']) },
  { label: 'ECDSA P-384 (PEM, SEC1)', generate: (dir) => generateKeyPair(dir, ['-t', 'ecdsa', '-b', '384', '-m', 'PEM']) },
  { label: 'ECDSA P-521 (PKCS#8)', generate: (dir) => generateKeyPair(dir, ['-t', 'ecdsa', '-b', '521', '-m', 'PKCS8']) },
];

/**
 * Debian's OpenSSH server on a loopback port, as the current user (root in CI: logins as root
 * by key only), with its own host key, config and authorized keys in a temporary folder.
 * Public-key authentication only: password logins need system accounts, which a test does not
 * create (the ssh2 server covers them).
 */
export class OpenSshServer {
  readonly username = userInfo().username;
  #process?: ChildProcess;
  #authorized: string[] = [];
  port = 0;
  hostKey!: KeyPair;

  private constructor(
    readonly dir: string,
    private readonly maxSessions: number,
  ) {}

  /** `maxSessions`: the server's `MaxSessions` (OpenSSH's default 10; 0 refuses every command). */
  static async start(options: { maxSessions?: number } = {}): Promise<OpenSshServer> {
    const dir = await mkdtemp(join(tmpdir(), 'svc-sshd-'));
    const server = new OpenSshServer(dir, options.maxSessions ?? 10);
    server.port = await freePort();
    await server.restart({ newHostKey: true });
    return server;
  }

  /** The known_hosts line of the server's current host key. */
  get knownHostsLine(): string {
    return `[127.0.0.1]:${this.port} ${this.hostKey.publicKey.split(' ').slice(0, 2).join(' ')}`;
  }

  async authorize(publicKey: string): Promise<void> {
    this.#authorized.push(publicKey);
    await writeFile(join(this.dir, 'authorized_keys'), `${this.#authorized.join('\n')}\n`, { mode: 0o600 });
  }

  /** Stops and starts the server on the same port, with a new host key when asked (a host-key change). */
  async restart(options: { newHostKey?: boolean } = {}): Promise<void> {
    await this.stop();
    if (options.newHostKey) {
      await rm(join(this.dir, 'host_key'), { force: true });
      await rm(join(this.dir, 'host_key.pub'), { force: true });
      await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(this.dir, 'host_key')]);
      this.hostKey = { privateKey: await readFile(join(this.dir, 'host_key'), 'utf8'), publicKey: (await readFile(join(this.dir, 'host_key.pub'), 'utf8')).trim() };
    }
    await writeFile(join(this.dir, 'authorized_keys'), `${this.#authorized.join('\n')}\n`, { mode: 0o600 });
    await writeFile(join(this.dir, 'sshd_config'), this.#config());
    // As root, sshd wants its privilege-separation folder (made by the service unit normally).
    if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
    await chmod(join(this.dir, 'host_key'), 0o600);
    this.#process = await startSshd(join(this.dir, 'sshd_config'));
  }

  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }

  #config(): string {
    return [
      `Port ${this.port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(this.dir, 'host_key')}`,
      `PidFile ${join(this.dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(this.dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'MaxStartups 100',
      `MaxSessions ${this.maxSessions}`,
      // sshd runs a command through the login user's shell, and bash reads that user's ~/.bashrc
      // when sshd started it at the top level: a host's own set-up (root's on CI machines loads
      // pyenv, some 0.6 s of CPU) would run before every command. At SHLVL 1 the session's bash
      // counts as nested and does not read it.
      'SetEnv SHLVL=1',
      'LogLevel INFO',
      '',
    ].join('\n');
  }
}

/** Runs `sshd -D -e` and waits until it listens; its log is kept for a failure's message. */
function startSshd(config: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server listening on')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sshd exited (${code}) before listening:\n${log}`)));
  });
}
