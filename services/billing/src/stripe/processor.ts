import Stripe from 'stripe';

export interface ProcessorConfig {
  secretKey?: string;
  /** `https://api.stripe.com` by default; a local server speaking the same protocol in tests. */
  apiBase: string;
}

/** How long one call to the processor may take before the request fails (the SDK retries twice within it). */
const PROCESSOR_TIMEOUT_MS = 10_000;

/**
 * The official SDK pointed at `apiBase`. Without a secret key there is no client, and the
 * endpoints that need one answer that billing is not configured.
 */
export function createProcessor(config: ProcessorConfig): Stripe | undefined {
  if (!config.secretKey) return undefined;
  const base = new URL(config.apiBase);
  return new Stripe(config.secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    timeout: PROCESSOR_TIMEOUT_MS,
    telemetry: false,
  });
}

/** Signature checks need no key: the SDK's webhook helpers only. */
export const webhookVerifier = Stripe.webhooks;
