import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { Db } from '@svc/db';
import { OAuthClientRepository } from '../repositories/oauth-client.repository.js';
import type { ClientDocuments } from './client-document.js';
import { checkedClientMetadata, isClientDocumentUrl, type OAuthClient } from './oauth-client-rules.js';

const CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The clients the authorization server knows: registered dynamically (RFC 7591, an id the SDK's
 * handler generates) or described by a client ID metadata document at their https `client_id`.
 */
export class OAuthClientService implements OAuthRegisteredClientsStore {
  constructor(
    private readonly db: Db,
    private readonly documents: ClientDocuments,
  ) {}

  async getClient(clientId: string): Promise<OAuthClient | undefined> {
    if (isClientDocumentUrl(clientId)) return this.documents.clientOf(clientId);
    if (!CLIENT_ID.test(clientId)) return undefined;
    const row = await new OAuthClientRepository(this.db).find(clientId.toLowerCase());
    if (!row) return undefined;
    return { ...(row.metadata as Omit<OAuthClient, 'client_id'>), client_id: row.clientId, client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000) };
  }

  /** The SDK's handler has parsed the metadata and made an id (and a secret, which a public client does not keep). */
  async registerClient(client: Omit<OAuthClient, 'client_id' | 'client_id_issued_at'> & { client_id?: string }): Promise<OAuthClient> {
    const metadata = checkedClientMetadata(client);
    const row = await new OAuthClientRepository(this.db).insert(client.client_id!, metadata);
    return { ...metadata, client_id: row.clientId, client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000) };
  }
}
