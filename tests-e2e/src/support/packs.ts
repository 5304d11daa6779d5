import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { pack, type Header } from 'tar-stream';
import { expectDescribed, type Reply } from './client.js';

const gzip = promisify(gzipCallback);

/** A `.tar.gz` written entry by entry as given (a file unless `type` says otherwise), however malicious. */
export async function rawTarGz(entries: Array<Partial<Header> & { name: string; content?: string | Buffer }>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const { content, ...header } of entries) {
    if (content === undefined) archive.entry(header);
    else archive.entry(header, content);
  }
  archive.finalize();
  await done;
  return gzip(Buffer.concat(chunks));
}

/**
 * `POST /api/v1/registry/packs` (or another upload route, `to`) with the package in the multipart
 * field `package`, as a browser or the CLI sends it.
 */
export async function uploadPackage(baseUrl: string, token: string, bytes: Buffer, field = 'package', to = { method: 'POST', path: '/api/v1/registry/packs' }): Promise<Reply> {
  const form = new FormData();
  form.append(field, new Blob([bytes], { type: 'application/gzip' }), 'pack.tar.gz');
  const res = await fetch(`${baseUrl}${to.path}`, { method: to.method, headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON; tests assert on the raw text.
  }
  return expectDescribed(to.method, to.path, { status: res.status, headers: res.headers, body });
}
