import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { pack } from 'tar-stream';
import { createPackArchive } from '@svc/pack-sdk';
import { expectDescribed, type Reply } from './client.js';

const gzip = promisify(gzipCallback);

export interface PackSpec {
  namespace: string;
  name: string;
  version?: string;
  visibility?: 'public' | 'unlisted' | 'private' | 'organization';
  /** Commands of the pack; one named like the pack when absent. */
  commands?: Array<{ name: string } & Record<string, unknown>>;
  /** Files to add or replace; `null` leaves a file out. */
  files?: Record<string, string | null>;
}

/** The pack.yaml of `spec`, written as JSON (which is YAML too). */
export function manifestOf(spec: PackSpec): Record<string, unknown> {
  return {
    schema_version: 1,
    pack: { namespace: spec.namespace, name: spec.name, version: spec.version ?? '1.0.0', visibility: spec.visibility ?? 'public', description: `${spec.name} (e2e)` },
    commands: (spec.commands ?? [{ name: spec.name }]).map((command) => ({
      description: `The ${command.name} command`,
      entry: `commands/${command.name}.js`,
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      ...command,
    })),
  };
}

/** A `.tar.gz` package for `spec`, with an entry file per command unless `files` says otherwise. */
export async function packageOf(spec: PackSpec): Promise<Buffer> {
  const manifest = manifestOf(spec);
  const files: Record<string, string> = { 'pack.yaml': JSON.stringify(manifest, null, 2) };
  for (const command of manifest.commands as Array<{ entry: string }>) files[command.entry] = 'export default async (input) => ({ echoed: input });\n';
  for (const [path, content] of Object.entries(spec.files ?? {})) {
    if (content === null) delete files[path];
    else files[path] = content;
  }
  return createPackArchive(files);
}

/** A `.tar.gz` written entry by entry as given, however malicious. */
export async function rawTarGz(entries: Array<{ name: string; content: string }>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) archive.entry({ name: entry.name }, entry.content);
  archive.finalize();
  await done;
  return gzip(Buffer.concat(chunks));
}

/** `POST /api/v1/registry/packs` with the package in the multipart field `package`, as a browser or the CLI sends it. */
export async function uploadPackage(baseUrl: string, token: string, bytes: Buffer, field = 'package'): Promise<Reply> {
  const form = new FormData();
  form.append(field, new Blob([bytes], { type: 'application/gzip' }), 'pack.tar.gz');
  const res = await fetch(`${baseUrl}/api/v1/registry/packs`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON; tests assert on the raw text.
  }
  return expectDescribed('POST', '/api/v1/registry/packs', { status: res.status, headers: res.headers, body });
}
