import { randomBytes } from 'node:crypto';
import { createPackWheel, parseManifest } from '@svc/pack-sdk';
import { packageOf } from '@svc/pack-sdk/testing';
import { expectCall } from './api.js';
import { OPERATOR } from './fleets.js';

export interface Developer {
  slug: string;
  email: string;
  userId: string;
  tenantId: string;
  /** Access token (JWT). */
  token: string;
  /** `sk-svc-` key with the `commands:execute` scope. */
  apiKey: string;
}

/** The wheel of a private Python pack whose one command answers its input, as `svc pack build` makes it. */
function pythonEchoWheel(namespace: string, name: string, command: string): Buffer {
  const module = name.replace(/-/g, '_');
  const manifest = `schema_version: 1
pack: { namespace: ${namespace}, name: ${name}, version: 1.0.0, visibility: private }
runtime: python
python: ">=3.10"
commands:
  - { name: ${command}, entry: "${module}.echo:run", input_schema: { type: object } }
`;
  const files = { 'pack.yaml': manifest, [`${module}/__init__.py`]: '', [`${module}/echo.py`]: 'def run(input, ctx):\n    return {"echoed": input}\n' };
  return createPackWheel(files, parseManifest(manifest)).wheel;
}

/**
 * Publishes and installs a private pack whose one command answers its input (`{ echoed: input }`),
 * so that `POST /commands/{slug}/{command}` runs it: a Node pack, or a Python one as a wheel.
 */
export async function publishAndInstall(url: string, developer: Developer, name: string, command: string, runtime: 'node' | 'python' = 'node'): Promise<void> {
  const form = new FormData();
  const [bytes, file] =
    runtime === 'python'
      ? [pythonEchoWheel(developer.slug, name, command), 'pack.whl']
      : [await packageOf({ namespace: developer.slug, name, visibility: 'private', commands: [{ name: command }] }), 'pack.tar.gz'];
  form.append('package', new Blob([bytes]), file);
  const published = await fetch(`${url}/api/v1/registry/packs`, { method: 'POST', headers: { authorization: `Bearer ${developer.token}` }, body: form });
  if (published.status !== 201) throw new Error(`publishing ${name}: ${published.status} ${await published.text()}`);
  await expectCall(200, url, '/api/v1/packs/install', { token: developer.token, body: { name: `@${developer.slug}/${name}`, version: '1.0.0' } });
}

/**
 * Through the REST API only, as a person would: the operator mints an enterprise access code, a
 * developer registers with it, turns developer mode on, publishes and installs the `echo` pack
 * and makes an API key.
 */
export async function prepareDeveloper(url: string): Promise<Developer> {
  const operator = await expectCall(200, url, '/api/v1/auth/login', { body: OPERATOR });
  const adminToken: string = operator.data.tokens.accessToken;
  const minted = await expectCall(201, url, '/api/v1/access-codes', { token: adminToken, body: { tier: 'enterprise', cohort: 'bench' } });
  const slug = `bench-${randomBytes(4).toString('hex')}`;
  const email = `${slug}@example.test`;
  const registered = await expectCall(201, url, '/api/v1/auth/register', { body: { email, password: 'bench-password-1', slug, access_code: minted.data.codes[0] } });
  const token: string = registered.data.tokens.accessToken;
  const me = await expectCall(200, url, '/api/v1/auth/me', { token });
  await expectCall(200, url, '/api/v1/account/developer-mode', { token, body: { organization: { name: `Org ${slug}`, slug: `org-${slug}` } } });
  const developer: Developer = { slug, email, userId: registered.data.user.id, tenantId: me.data.tenantId, token, apiKey: '' };
  await publishAndInstall(url, developer, 'tools', 'echo');
  const key = await expectCall(201, url, '/api/v1/account/api-keys', { token, body: { name: 'bench', scopes: ['commands:execute'] } });
  return { ...developer, apiKey: key.data.key };
}
