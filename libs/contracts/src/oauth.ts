import { z } from 'zod';
import { Timestamp } from './responses.js';

/** An OAuth error body (RFC 6749 §5.2). */
export const OAuthError = z
  .object({ error: z.string(), error_description: z.string().optional(), error_uri: z.string().optional() })
  .meta({ id: 'OAuthError', description: 'RFC 6749 §5.2.' });

/** What a user authorized an MCP client to do, as they list it. */
export const Authorization = z
  .object({
    id: z.uuid(),
    client_id: z.string().meta({ description: 'The id the client registered with, or the https URL of its client ID metadata document.' }),
    client_name: z.string(),
    redirect_host: z.string().meta({ description: 'Where the client receives its codes.' }),
    tenant: z.object({ id: z.uuid(), slug: z.string() }).meta({ description: 'The tenant the user chose: the only one the client acts in.' }),
    scopes: z.array(z.string()),
    resource: z.string().meta({ description: 'The resource its tokens are for (the MCP endpoint).' }),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable().meta({ description: 'When the client last obtained tokens (the code exchanged, or a refresh).' }),
    revoked_at: Timestamp.nullable(),
  })
  .meta({ id: 'Authorization' });
export type Authorization = z.infer<typeof Authorization>;

/** `DELETE /api/v1/account/authorizations/{id}`. */
export const AuthorizationRevoked = Authorization.extend({ message: z.string() });

/** A document of the OAuth protocol family, answered as its RFC gives it; the server's library writes it. */
export const OAuthDocument = (description: string) => z.record(z.string(), z.unknown()).meta({ description });
