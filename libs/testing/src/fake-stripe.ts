import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, as Stripe would have seen it. */
export interface FakeStripeRequest {
  method: string;
  path: string;
  /** The form-encoded body, decoded into nested objects and arrays (`line_items[0][price]`). */
  params: Record<string, unknown>;
  stripeVersion: string | undefined;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: what `STRIPE_API_BASE` names. */
  url: string;
  /** Every request received, oldest first (replays answered from the idempotency cache included). */
  requests: FakeStripeRequest[];
  /** Checkout sessions created, by id. */
  checkoutSessions: Map<string, Record<string, unknown>>;
  /** The next request is answered with this Stripe error object and status, once. */
  failNext(status: number, error: { type: string; message: string; code?: string }): void;
  close(): Promise<void>;
}

type Params = Record<string, unknown>;

/** `a[b][0][c]=v` → `{a: {b: [{c: 'v'}]}}`, as Stripe decodes its form bodies. */
export function decodeStripeForm(body: string): Params {
  const root: Params = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const keys = name.split(/\[|\]\[|\]$/).filter((k, i) => i === 0 || k !== '');
    let node: Record<string, unknown> = root;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        node[key] = value;
        return;
      }
      node[key] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {};
      node = node[key] as Record<string, unknown>;
    });
  }
  return root;
}

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message);
  }
}

const missing = (param: string) => new StripeFailure(400, { type: 'invalid_request_error', code: 'parameter_missing', param, message: `Missing required param: ${param}.` });
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function required(params: Params, name: string): unknown {
  if (params[name] === undefined || params[name] === '') throw missing(name);
  return params[name];
}

/**
 * A local HTTP server speaking the slice of Stripe's REST API the platform calls (Checkout
 * sessions, Billing Portal sessions): form-encoded bodies, bearer secret keys, `Stripe-Version`,
 * idempotency keys (a replay gets the first answer; the same key with other parameters is
 * refused, as Stripe does) and Stripe's error objects. The real `stripe` SDK talks to it when
 * configured with its host, port and protocol, so that no test stubs the SDK.
 *
 * @example
 *   const stripe = await startFakeStripe();
 *   // STRIPE_API_BASE=stripe.url, STRIPE_SECRET_KEY=sk_test_…
 *   expect(stripe.checkoutSessions.size).toBe(1);
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const checkoutSessions = new Map<string, Params>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  let failure: StripeFailure | undefined;
  let base = '';

  const routes: Record<string, (params: Params) => Params> = {
    'POST /v1/checkout/sessions': (params) => {
      const mode = required(params, 'mode');
      required(params, 'success_url');
      const items = params.line_items as { price?: string }[] | undefined;
      if (!items?.[0]?.price) throw missing('line_items[0][price]');
      const session = {
        id: id('cs'),
        object: 'checkout.session',
        mode,
        status: 'open',
        payment_status: 'unpaid',
        url: `${base}/pay/${randomBytes(8).toString('hex')}`,
        client_reference_id: params.client_reference_id ?? null,
        customer: params.customer ?? null,
        customer_email: params.customer_email ?? null,
        metadata: params.metadata ?? {},
        success_url: params.success_url,
        cancel_url: params.cancel_url ?? null,
        created: nowSeconds(),
        livemode: false,
      };
      checkoutSessions.set(session.id, session);
      return session;
    },
    'POST /v1/billing_portal/sessions': (params) => {
      const customer = required(params, 'customer');
      return { id: id('bps'), object: 'billing_portal.session', customer, return_url: params.return_url ?? null, url: `${base}/portal/${randomBytes(8).toString('hex')}`, created: nowSeconds(), livemode: false };
    },
  };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const header = (name: string) => req.headers[name] as string | undefined;
    const params = decodeStripeForm(body);
    requests.push({ method: req.method ?? 'GET', path, params, stripeVersion: header('stripe-version'), idempotencyKey: header('idempotency-key'), authorization: header('authorization') });
    try {
      if (!/^Bearer sk_(test|live)_\w+$/.test(header('authorization') ?? '')) throw new StripeFailure(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
      if (failure) {
        const thrown = failure;
        failure = undefined;
        throw thrown;
      }
      const key = header('idempotency-key');
      const known = key ? idempotent.get(key) : undefined;
      if (known && known.body !== body) throw new StripeFailure(400, { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' });
      if (known) return answer(res, known.status, known.answer);
      const route = routes[`${req.method} ${path}`];
      if (!route) throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` });
      const result = route(params);
      if (key) idempotent.set(key, { body, status: 200, answer: result });
      answer(res, 200, result);
    } catch (err) {
      if (!(err instanceof StripeFailure)) throw err;
      answer(res, err.status, { error: err.body });
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    checkoutSessions,
    failNext(status, error) {
      failure = new StripeFailure(status, error);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
