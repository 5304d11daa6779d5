import { extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { NotFoundError } from '@svc/core';
import type { BundleFileHandle } from '../services/bundle.service.js';

/** Bundle URLs carry their version and never change (Part 2, "Versioning" 2). */
const IMMUTABLE = 'private, max-age=31536000, immutable';

/** The one byte range to serve, or undefined for the whole file (RFC 9110 lets a server ignore a Range it will not serve: several ranges, unsatisfiable, malformed). */
function rangeOf(req: Request, size: number, etag: string) {
  const ifRange = req.get('if-range');
  if (ifRange !== undefined && ifRange !== etag) return undefined;
  const ranges = req.range(size);
  if (!Array.isArray(ranges) || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return ranges[0];
}

/**
 * Whether `If-None-Match` names `etag` (weakly) or is `*`. Evaluated as an origin server does
 * (RFC 9110 13.1.2) whatever `Cache-Control` the request carries, unlike `req.fresh`, which
 * ignores it under `no-cache` (fetch adds that to every conditional request).
 */
function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/**
 * Answers a bundle file: its `Content-Type` by extension, the immutable cache header, an
 * `ETag` of its SHA-256 (`304` on `If-None-Match`) and one `Range` (`206`): a small file from
 * memory in one write, a larger one streamed from the blob store.
 */
export async function sendBundleFile(req: Request, res: Response, { file, read }: BundleFileHandle): Promise<void> {
  const etag = `"${file.sha256}"`;
  res.type(extname(file.path) || 'application/octet-stream');
  res.set({ 'Cache-Control': IMMUTABLE, ETag: etag, 'Accept-Ranges': 'bytes' });
  if (matchesNoneMatch(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  const range = rangeOf(req, file.sizeBytes, etag);
  if (range) {
    res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`);
    res.set('Content-Length', String(range.end - range.start + 1));
  } else {
    res.set('Content-Length', String(file.sizeBytes));
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const body = await read(range);
  if (!body) throw new NotFoundError('File not found in the bundle', { reason: 'file_not_found', path: file.path });
  const expected = range ? range.end - range.start + 1 : file.sizeBytes;
  const short = (sent: number) => new Error(`bundle file ${file.path} gave ${sent} of ${expected} bytes`);
  if (Buffer.isBuffer(body)) {
    if (body.length === expected) res.end(body);
    else res.destroy(short(body.length));
    return;
  }
  let sent = 0;
  body.on('data', (chunk: Buffer) => (sent += chunk.length));
  await pipeline(body, res, { end: false });
  // A stored file shorter than its inventory says would leave the client waiting for bytes that
  // never come: cut the connection instead, so that it fails at once.
  if (sent === expected) res.end();
  else res.destroy(short(sent));
}

/** The file path of a bundle URL: express's `*path` parameter, its segments joined. */
export function bundleFilePath(req: Request): string {
  const segments = (req.params as { path?: string[] }).path ?? [];
  return segments.join('/');
}
