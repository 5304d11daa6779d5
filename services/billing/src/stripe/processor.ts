import type Stripe from 'stripe';

export interface ProcessorConfig {
  secretKey?: string;
  /** `https://api.stripe.com` by default; a local server speaking the same protocol in tests. */
  apiBase: string;
}

/** How long one call to the processor may take before the request fails (the SDK retries twice within it). */
const PROCESSOR_TIMEOUT_MS = 10_000;

/**
 * The SDK, loaded when it is first needed: a platform without billing never holds its modules,
 * 2.3 MB of V8's heap and more outside it (BENCHMARKS.md, twentieth round).
 */
const sdk = () => import('stripe').then((module) => module.default);

/** The payment processor's client, made with the first call that needs it. */
export type Processor = () => Promise<Stripe>;

/**
 * The official SDK pointed at `apiBase`. Without a secret key there is no client, and the
 * endpoints that need one answer that billing is not configured.
 */
export function createProcessor(config: ProcessorConfig): Processor | undefined {
  const { secretKey } = config;
  if (!secretKey) return undefined;
  const base = new URL(config.apiBase);
  let client: Promise<Stripe> | undefined;
  return () =>
    (client ??= sdk().then(
      (StripeSdk) =>
        new StripeSdk(secretKey, {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
          maxNetworkRetries: 2,
          timeout: PROCESSOR_TIMEOUT_MS,
          telemetry: false,
        }),
    ));
}

/** Checks a webhook's signature and reads its event, with the SDK's helper (which needs no key). */
export async function verifiedEvent(...args: Parameters<typeof Stripe.webhooks.constructEvent>): Promise<Stripe.Event> {
  return (await sdk()).webhooks.constructEvent(...args);
}
