import type { Client } from 'ssh2';
import { SSH_MESSAGES, SSH_OUTPUT_MAX_BYTES, type SshExecReply } from '@svc/contracts';
import { TimeoutError } from '@svc/core';
import { ChannelRefusedError, SshConnectionError } from './ssh-errors.js';

/** Keeps the first `SSH_OUTPUT_MAX_BYTES` of a stream and counts what it drops. */
class Capped {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  dropped = false;

  add(chunk: Buffer): void {
    const room = SSH_OUTPUT_MAX_BYTES - this.#kept;
    if (chunk.length > room) this.dropped = true;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length === 0) return;
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/**
 * Runs one command on an open connection (a channel of its own). Past `timeoutMs` the command
 * is sent KILL, its channel closed, and the call fails with "command timed out"; the connection
 * stays usable.
 */
export function execOn(client: Client, command: string, timeoutMs: number): Promise<SshExecReply> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      // ssh2 gives an open failure the server's reason code; other errors mean the connection went.
      if (err) return reject(typeof (err as { reason?: unknown }).reason === 'number' ? new ChannelRefusedError(err.message) : new SshConnectionError('closed', { stage: 'channel' }));
      const stdout = new Capped();
      const stderr = new Capped();
      let exit: { code: number | null } | undefined;
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        stream.signal('KILL');
        stream.close();
        reject(new TimeoutError(SSH_MESSAGES.timedOut, { timeout_ms: timeoutMs }));
      }, timeoutMs);
      stream.on('data', (chunk: Buffer) => stdout.add(chunk));
      stream.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
      stream.on('exit', (code: number | null) => {
        exit = { code: typeof code === 'number' ? code : null };
      });
      stream.on('close', () => {
        clearTimeout(timer);
        if (done) return;
        done = true;
        // A channel that closes without an exit status lost its connection.
        if (!exit) return reject(new SshConnectionError('closed', { stage: 'command' }));
        resolve({ stdout: stdout.text(), stderr: stderr.text(), exit_code: exit.code, truncated: stdout.dropped || stderr.dropped });
      });
    });
  });
}
