import { createHash } from 'node:crypto';
import type { BlockList } from 'node:net';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Cache } from '@svc/cache';
import type { Logger } from '@svc/core';
import { allowList, egressFetch } from '@svc/egress';
import { checkedClientMetadata, type OAuthClient } from './oauth-client-rules.js';

/** How long a fetched document is trusted before it is fetched again. */
const DOCUMENT_CACHE_SECONDS = 300;
const DOCUMENT_MAX_BYTES = 64 * 1024;
const DOCUMENT_TIMEOUT_MS = 5000;

export interface ClientDocumentOptions {
  /** Private ranges (CIDRs) documents may be fetched from besides public addresses (tests: loopback). */
  allowedCidrs?: string[];
  /** Certificates (PEM) trusted for https besides the system's: an operator's authority, a test's own. */
  ca?: string;
}

/**
 * Client ID metadata documents: a client whose `client_id` is an https URL describes itself in
 * the JSON document at that URL, which the platform fetches through the egress guard (public
 * addresses only, no redirects, size and time bounded) and keeps for a few minutes. A document
 * that cannot be fetched, is not JSON client metadata, names another `client_id` or breaks the
 * client rules makes no client: the authorization server answers `invalid_client`.
 */
export class ClientDocuments {
  private readonly allowed: BlockList;
  private readonly ca: string | undefined;

  constructor(
    private readonly cache: Cache,
    private readonly log: Logger,
    options: ClientDocumentOptions = {},
  ) {
    this.allowed = allowList(options.allowedCidrs ?? []);
    this.ca = options.ca;
  }

  async clientOf(url: string): Promise<OAuthClient | undefined> {
    const key = `oauth:client-document:${createHash('sha256').update(url).digest('hex')}`;
    const cached = await this.cache.get(key).catch(() => null);
    if (cached) return JSON.parse(cached) as OAuthClient;
    const client = await this.fetch(url);
    if (client) await this.cache.set(key, JSON.stringify(client), DOCUMENT_CACHE_SECONDS).catch(() => undefined);
    return client;
  }

  private async fetch(url: string): Promise<OAuthClient | undefined> {
    try {
      const reply = await egressFetch(url, {
        headers: { accept: 'application/json' },
        timeoutMs: DOCUMENT_TIMEOUT_MS,
        maxResponseBytes: DOCUMENT_MAX_BYTES,
        allowed: this.allowed,
        ca: this.ca,
      });
      if (reply.status !== 200) throw new Error(`answered ${reply.status}`);
      const document = JSON.parse(reply.body) as Record<string, unknown>;
      if (document?.client_id !== url) throw new Error('the document names another client_id');
      if ('client_secret' in document) throw new Error('a client metadata document carries no secret');
      const parsed = OAuthClientMetadataSchema.safeParse(document);
      if (!parsed.success) throw new Error(`not client metadata: ${parsed.error.message.slice(0, 200)}`);
      return { ...checkedClientMetadata(parsed.data), client_id: url };
    } catch (err) {
      // The client is told `invalid_client`; why is for the operator.
      this.log.warn('client metadata document refused', { client_id: url.slice(0, 300), reason: (err as Error).message });
      return undefined;
    }
  }
}
