import { InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAUTH_SCOPE } from '@svc/auth';

/** At most this many redirect URIs per client, each at most this long. */
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 100;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// Unicode Cc: a name is shown on the consent page and in the list of authorized apps.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Where an authorization code may be sent (OAuth 2.1 §2.3.1 and RFC 8252): an https URL, or
 * http to the client's own machine (a native client on a loopback port). Nothing with
 * credentials or a fragment.
 */
function redirectUriAllowed(raw: string): boolean {
  if (raw.length > MAX_URI_LENGTH || !URL.canParse(raw)) return false;
  const url = new URL(raw);
  if (url.username || url.password || url.hash) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

/** The name shown to the user: as the client gave it, trimmed and one line, else its redirect host. */
export function clientNameOf(client: Pick<OAuthClientMetadata, 'client_name' | 'redirect_uris'>): string {
  const name = client.client_name?.trim();
  if (name) return name;
  return URL.canParse(client.redirect_uris[0] ?? '') ? new URL(client.redirect_uris[0]!).host : 'Unnamed client';
}

/**
 * What the platform requires of a client, registered or described by a metadata document: the
 * authorization code flow, no scope but `commands:execute`, codes sent only to redirect URIs it
 * may receive them at. Answers the metadata as the platform keeps it (RFC 7591 lets the server
 * replace values): always a public client, `token_endpoint_auth_method: "none"`, whatever it
 * asked for, since PKCE is its proof and a secret kept by the platform would be one more to
 * leak. Throws `invalid_client_metadata` for the rest.
 */
export function checkedClientMetadata(metadata: OAuthClientMetadata): OAuthClientMetadata {
  const uris = metadata.redirect_uris;
  if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS) throw new InvalidClientMetadataError(`redirect_uris must list 1-${MAX_REDIRECT_URIS} URIs`);
  const refused = uris.find((uri) => !redirectUriAllowed(uri));
  if (refused !== undefined) throw new InvalidClientMetadataError(`redirect_uris: ${refused.slice(0, 200)} is not an https URL or an http URL on a loopback address`);
  const grants = metadata.grant_types ?? ['authorization_code', 'refresh_token'];
  if (grants.some((grant) => grant !== 'authorization_code' && grant !== 'refresh_token')) throw new InvalidClientMetadataError('grant_types may be authorization_code and refresh_token only');
  if ((metadata.response_types ?? ['code']).some((type) => type !== 'code')) throw new InvalidClientMetadataError('response_types may be code only');
  if (metadata.scope !== undefined && metadata.scope.split(' ').some((scope) => scope !== OAUTH_SCOPE)) throw new InvalidClientMetadataError(`scope may be ${OAUTH_SCOPE} only`);
  const name = metadata.client_name?.trim();
  if (name !== undefined && (name.length > MAX_NAME_LENGTH || CONTROL.test(name))) throw new InvalidClientMetadataError(`client_name must be one line of at most ${MAX_NAME_LENGTH} characters`);
  return {
    redirect_uris: uris,
    token_endpoint_auth_method: 'none',
    grant_types: grants,
    response_types: ['code'],
    ...(name ? { client_name: name } : {}),
    ...(metadata.client_uri ? { client_uri: metadata.client_uri } : {}),
    ...(metadata.logo_uri ? { logo_uri: metadata.logo_uri } : {}),
    scope: OAUTH_SCOPE,
    ...(metadata.software_id ? { software_id: metadata.software_id.slice(0, 200) } : {}),
    ...(metadata.software_version ? { software_version: metadata.software_version.slice(0, 200) } : {}),
  };
}

/** A client whose id is an https URL: its metadata document says who it is (CIMD). */
export function isClientDocumentUrl(clientId: string): boolean {
  if (clientId.length > MAX_URI_LENGTH || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  return url.protocol === 'https:' && url.pathname !== '/' && !url.hash && !url.username && !url.password;
}

export type OAuthClient = OAuthClientInformationFull;
