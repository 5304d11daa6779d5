import fc from 'fast-check';
import type { OperationObject } from '@svc/openapi';
import type { CallOptions } from './client.js';
import type { DocumentedOperation } from './openapi.js';
import { SchemaArbitraries } from './fuzz.js';

/** Who a fuzzed request claims to be. */
export type Credential = 'session' | 'apiKey' | 'admin' | 'none' | 'garbage';

/** One request derived from an operation: its path (already encoded), options and credential. */
export interface FuzzedRequest {
  path: string;
  options: CallOptions;
  credential: Credential;
}

/** Methods a fetch may not send a body with. */
const BODILESS = ['GET', 'HEAD'];

/** Path segments as sent, already percent-encoded where they need it (or broken on purpose). */
const HOSTILE_SEGMENTS = ['%00', '%ZZ', '%C0%AF', '..%2F..%2Fetc%2Fpasswd', '%F0%9F%92%A9', '-1', '1e400', "x'%20OR%201=1--", 'a'.repeat(3000), '%20', '.', 'null', 'undefined'];
const GARBAGE_CREDENTIALS = [`Bearer ${'x'.repeat(10_000)}`, `Bearer sk-svc-${'g'.repeat(64)}`, `Bearer sk-svc-${'0'.repeat(64)}`, 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'bearer  x'];
/** Bodies no operation takes as they are: broken JSON, invalid UTF-8, deep, huge. */
const RAW_BODIES: Array<string | Buffer> = [
  '{',
  '{"a":1,}',
  '\ufeff{}',
  'null',
  Buffer.from('{"\xff\xfe":1}', 'latin1'),
  Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad]),
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`,
  `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":1`).join(',')}}`,
  `{"a":1,"a":2}`,
];
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/merge-patch+json', 'multipart/form-data', 'multipart/form-data; boundary=', '', 'application/json, text/plain'];
const ODD_HEADERS: Array<Record<string, string>> = [
  { 'content-encoding': 'gzip' },
  { 'content-encoding': 'br' },
  { 'content-encoding': 'identity, deflate' },
  { 'x-request-id': 'x'.repeat(500) },
  { 'x-request-id': '../../etc/passwd' },
  { 'x-forwarded-for': 'not-an-address, 10.0.0.1' },
  { 'x-padding': 'x'.repeat(17 * 1024) },
  { accept: 'text/html' },
  { accept: '*/*;q=0' },
  { 'accept-encoding': 'gzip;q=1.0, identity;q=0' },
  { cookie: `svc_refresh=${'x'.repeat(3000)}` },
  { cookie: '=;=;"' },
  { 'idempotency-key': 'x'.repeat(2000) },
];

/** Ids the fuzzing tenant owns (by path parameter name) and values any parameter may be given. */
export interface FuzzIds {
  byName: Record<string, string[]>;
}

/** URLs carry UTF-8, so a lone surrogate goes as the replacement character (its bytes are the nearest thing). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const encode = (value: unknown) => encodeURIComponent((typeof value === 'string' ? value : String(JSON.stringify(value))).replace(LONE_SURROGATE, '\ufffd'));

/** Arbitrary requests for one operation: valid, boundary and hostile values, odd bodies and headers. */
export function requestsFor({ method, template, operation }: DocumentedOperation, schemas: SchemaArbitraries, ids: FuzzIds): fc.Arbitrary<FuzzedRequest> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const segment = (name: string) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...(ids.byName[name] ?? ['x'])).map(encode), weight: 4 },
      { arbitrary: fc.uuid().map(encode), weight: 1 },
      { arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS), weight: 2 },
      { arbitrary: fc.string({ maxLength: 30, unit: 'grapheme' }).map(encode), weight: 1 },
    );
  const path = fc.tuple(...names.map(segment)).map((values) => names.reduce((p, name, i) => p.replace(`{${name}}`, values[i]!), template));
  const parameters = (operation.parameters ?? []) as Array<{ in: string; name: string; schema?: object }>;
  const query = fc.tuple(
    ...parameters
      .filter((p) => p.in === 'query')
      .map((p) =>
        fc.option(
          fc.oneof(schemas.valid(p.schema ?? {}), schemas.hostile(p.schema ?? {})).map((v) => `${p.name}=${encode(v)}`),
          { nil: undefined },
        ),
      ),
    fc.option(fc.constantFrom('unknown=1', 'limit=1&limit=2', 'a[b]=1', '%ZZ=1', 'x'.repeat(5000)), { nil: undefined }),
  );
  const headerParameters = fc.tuple(...parameters.filter((p) => p.in === 'header').map((p) => fc.option(fc.constantFrom('', 'x'.repeat(300), 'k-1', '%00').map((v) => [p.name, v] as const), { nil: undefined })));
  const credential = fc.constantFrom<Credential>(...credentialsOf(operation));
  const extraHeaders = fc.option(fc.constantFrom(...ODD_HEADERS), { nil: undefined, freq: 3 });
  const garbage = fc.constantFrom(...GARBAGE_CREDENTIALS);
  return fc.record({ path, query, headerParameters, credential, garbage, extraHeaders, body: bodyFor(method, operation, schemas) }).map(({ path, query, headerParameters, credential, garbage, extraHeaders, body }) => {
    const search = query.filter(Boolean).join('&');
    const authorization: Record<string, string> = credential === 'garbage' ? { authorization: garbage } : {};
    const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...authorization, ...Object.fromEntries(headerParameters.filter((h) => h !== undefined)), ...body.headers, ...extraHeaders };
    return { path: search ? `${path}?${search}` : path, credential, options: { method, raw: body.raw, headers } };
  });
}

/** The credentials worth trying on an operation: the ones it documents, and ones it does not. */
function credentialsOf(operation: OperationObject): Credential[] {
  const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
  return ['session', 'session', 'admin', 'none', 'garbage', ...(schemes.includes('apiKey') ? (['apiKey', 'apiKey'] as const) : (['apiKey'] as const))];
}

interface FuzzedBody {
  raw?: string | Buffer;
  headers: Record<string, string>;
}

function bodyFor(method: string, operation: OperationObject, schemas: SchemaArbitraries): fc.Arbitrary<FuzzedBody> {
  const content = (operation.requestBody as { content?: Record<string, { schema?: object }> } | undefined)?.content;
  const noBody = fc.constant<FuzzedBody>({ headers: {} });
  if (BODILESS.includes(method)) return noBody;
  if (!content) return fc.oneof({ arbitrary: noBody, weight: 6 }, { arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => ({ raw, headers: { 'content-type': 'application/json' } })), weight: 1 });
  const [type, media] = Object.entries(content)[0]!;
  const schema = (media.schema ?? {}) as object;
  const raw = fc.constantFrom(...RAW_BODIES).map((raw) => ({ raw, headers: { 'content-type': type } }));
  const oddType = fc.tuple(schemas.valid(schema), fc.constantFrom(...CONTENT_TYPES)).map(([value, contentType]) => ({ raw: JSON.stringify(value), headers: { 'content-type': contentType } }));
  return fc.oneof({ arbitrary: shaped(type, schema, schemas), weight: 8 }, { arbitrary: raw, weight: 1 }, { arbitrary: oddType, weight: 1 });
}

/** A body in the operation's own media type, its values valid or spoilt. */
function shaped(type: string, schema: object, schemas: SchemaArbitraries): fc.Arbitrary<FuzzedBody> {
  if (type === 'application/json') {
    return schemas.body(schema).map((value) => ({ raw: JSON.stringify(value) ?? 'null', headers: { 'content-type': type } }));
  }
  if (type === 'application/x-www-form-urlencoded') {
    return schemas.body(schema).map((value) => ({ raw: formOf(value), headers: { 'content-type': type } }));
  }
  // multipart/form-data: each file field with bytes that are not the archive it wants (or nothing).
  const fields = Object.keys(schemas.resolve(schema).properties ?? { file: {} });
  return fc.tuple(fc.subarray(fields), fc.uint8Array({ maxLength: 2048 })).map(([named, bytes]) => multipart(named, Buffer.from(bytes)));
}

function formOf(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return encode(value);
  return Object.entries(value)
    .map(([k, v]) => `${encode(k)}=${encode(v)}`)
    .join('&');
}

function multipart(fields: string[], bytes: Buffer): FuzzedBody {
  const boundary = 'fuzzboundary7f3c';
  const parts = fields.map((name) => Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="x.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`), bytes, Buffer.from('\r\n')]));
  return { raw: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
