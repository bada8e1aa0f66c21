import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * A stand-in for Stripe's API on 127.0.0.1, for tests (Stripe itself is unreachable here). It
 * answers the Checkout Session and Refund calls Outing makes the way Stripe's API reference documents
 * them: form-encoded requests, `checkout.session` and `refund` objects, `{error: {type, message,
 * param}}` failures, Idempotency-Key replays, the 30 min – 24 h range of `expires_at`, and no refund
 * beyond what is left of a PaymentIntent. It records every request.
 */

export type FakeSession = Stripe.Checkout.Session & { [key: string]: unknown };
export type FakeRefund = Stripe.Refund & { [key: string]: unknown };
/** What a paid PaymentIntent holds, and how much of it refunds have taken (pending ones included, as Stripe counts them). */
interface FakeIntent {
  id: string;
  charge: string;
  amount: number;
  currency: string;
  refunded: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Environment for an Outing server that should use this fake. */
  env: Record<string, string>;
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  refunds: Map<string, FakeRefund>;
  /** The status a new refund is answered with: `pending` (the default) until `settleRefund`, or at once. */
  setRefundStatus(status: 'pending' | 'succeeded' | 'failed'): void;
  /** A refund reaches its end at the bank; answers it as Stripe then shows it. */
  settleRefund(refundId: string, status: 'succeeded' | 'failed' | 'canceled', failureReason?: string): FakeRefund;
  /** The charge a refund was taken from, with its refunds listed, as `charge.refunded` carries it. */
  chargeOf(refund: FakeRefund): Record<string, unknown> & { id: string };
  /** The session most recently created. */
  lastSession(): FakeSession;
  /** The customer pays: the session completes (`paid`, or `unpaid` while a bank debit clears). */
  pay(sessionId: string, paymentStatus?: 'paid' | 'unpaid'): FakeSession;
  /** Until turned off, every call answers like an outage (500 api_error). */
  setDown(down: boolean): void;
  /** A Stripe event about an object (a session, a refund, a charge), as Stripe would POST it. */
  event(type: string, object: { id: string }): { id: string; payload: string };
  /** The `Stripe-Signature` header for a payload, made by the stripe library's own test helper. */
  sign(payload: string, options?: { timestamp?: number; secret?: string }): string;
  close(): Promise<void>;
}

const random = (n: number) => randomBytes(n).toString('base64url').replace(/[-_]/g, 'x');

function setPath(target: Record<string, unknown>, path: string[], value: string): void {
  let node: Record<string, unknown> | unknown[] = target;
  path.forEach((segment, i) => {
    const last = i === path.length - 1;
    const key = Array.isArray(node) ? Number(segment) : segment;
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    if (container[key] === undefined) container[key] = /^\d+$/.test(path[i + 1] ?? '') ? [] : {};
    node = container[key] as Record<string, unknown>;
  });
}

/** Stripe's form encoding: `line_items[0][price_data][currency]=eur`. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) setPath(out, key.replace(/\]/g, '').split('['), value);
  return out;
}

function stripeError(res: ServerResponse, status: number, error: Record<string, unknown>, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error }));
}

const invalid = (message: string, param?: string) => ({ type: 'invalid_request_error', message, ...(param ? { param } : {}) });

export async function startFakeStripe(options: { now?: () => number } = {}): Promise<FakeStripe> {
  const now = () => Math.floor((options.now ?? Date.now)() / 1000);
  const secretKey = `sk_test_${random(24)}`;
  const webhookSecret = `whsec_${random(24)}`;
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const refunds = new Map<string, FakeRefund>();
  const intents = new Map<string, FakeIntent>();
  const replays = new Map<string, unknown>();
  let refundStatus: 'pending' | 'succeeded' | 'failed' = 'pending';
  let down = false;

  function createRefund(p: Record<string, unknown>): { refund: FakeRefund } | { status: number; error: Record<string, unknown> } {
    const intentId = typeof p.payment_intent === 'string' ? p.payment_intent : undefined;
    if (!intentId) return { status: 400, error: invalid('One of the following params should be provided for this request: payment_intent or charge.', 'payment_intent') };
    const intent = intents.get(intentId);
    if (!intent) return { status: 404, error: { ...invalid(`No such payment_intent: '${intentId}'`, 'payment_intent'), code: 'resource_missing' } };
    const left = intent.amount - intent.refunded;
    const amount = p.amount === undefined ? left : Number(p.amount);
    if (!Number.isInteger(amount) || amount <= 0) return { status: 400, error: invalid('Invalid positive integer', 'amount') };
    if (amount > left) {
      return {
        status: 400,
        error: { ...invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, 'amount'), code: 'amount_too_large' },
      };
    }
    if (p.reason !== undefined && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(String(p.reason))) {
      return { status: 400, error: invalid('Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer', 'reason') };
    }
    intent.refunded += amount;
    const refund = {
      id: `re_${random(24)}`,
      object: 'refund',
      amount,
      charge: intent.charge,
      created: now(),
      currency: intent.currency,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      payment_intent: intent.id,
      reason: (p.reason as string | undefined) ?? null,
      status: refundStatus,
      failure_reason: refundStatus === 'failed' ? 'unknown' : undefined,
    } as unknown as FakeRefund;
    if (refundStatus === 'failed') intent.refunded -= amount;
    refunds.set(refund.id, refund);
    return { refund };
  }

  function createSession(p: Record<string, unknown>): { session: FakeSession } | { error: ReturnType<typeof invalid> } {
    const items = (p.line_items as { quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } } }[]) ?? [];
    if (p.mode !== 'payment') return { error: invalid('Missing required param: mode.', 'mode') };
    if (typeof p.success_url !== 'string') return { error: invalid('Missing required param: success_url.', 'success_url') };
    if (items.length === 0) return { error: invalid('Missing required param: line_items.', 'line_items') };
    for (const [i, item] of items.entries()) {
      if (!item.price_data?.currency || !item.price_data.unit_amount || !item.price_data.product_data?.name || !item.quantity) {
        return { error: invalid('Missing required param: price_data.', `line_items[${i}][price_data]`) };
      }
    }
    const created = now();
    const expiresAt = p.expires_at === undefined ? created + 86_400 : Number(p.expires_at);
    if (expiresAt < created + 1800) {
      return { error: invalid('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at') };
    }
    if (expiresAt > created + 86_400) {
      return { error: invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at') };
    }
    const amount = items.reduce((sum, i) => sum + Number(i.price_data?.unit_amount) * Number(i.quantity), 0);
    const id = `cs_test_${random(40)}`;
    const session = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      url: `https://checkout.stripe.com/c/pay/${id}#${random(12)}`,
      created,
      expires_at: expiresAt,
      livemode: false,
      amount_subtotal: amount,
      amount_total: amount,
      currency: items[0]?.price_data?.currency ?? 'usd',
      client_reference_id: (p.client_reference_id as string | undefined) ?? null,
      customer_email: (p.customer_email as string | undefined) ?? null,
      metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      success_url: p.success_url,
      cancel_url: (p.cancel_url as string | undefined) ?? null,
      payment_intent: null,
    } as unknown as FakeSession;
    sessions.set(id, session);
    return { session };
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const params = req.method === 'GET' ? Object.fromEntries(url.searchParams) : parseStripeForm(body);
    requests.push({ method: req.method ?? '', path: url.pathname, params, headers: req.headers });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return stripeError(res, 401, invalid('Invalid API Key provided.'));
    }
    if (down) {
      return stripeError(res, 500, { type: 'api_error', message: 'An unknown error occurred' }, { 'stripe-should-retry': 'false' });
    }
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${random(10)}` });
      res.end(JSON.stringify(value));
    };
    const idempotencyKey = req.method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) : undefined;
    if (idempotencyKey && replays.has(`${url.pathname}|${idempotencyKey}`)) {
      return send(200, replays.get(`${url.pathname}|${idempotencyKey}`));
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const made = createSession(params);
      if ('error' in made) return stripeError(res, 400, made.error);
      if (idempotencyKey) replays.set(`${url.pathname}|${idempotencyKey}`, made.session);
      return send(200, made.session);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const made = createRefund(params);
      if ('error' in made) return stripeError(res, made.status, made.error);
      if (idempotencyKey) replays.set(`${url.pathname}|${idempotencyKey}`, made.refund);
      return send(200, made.refund);
    }
    const refundPath = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname);
    if (refundPath && req.method === 'GET') {
      const refund = refunds.get(refundPath[1] ?? '');
      if (!refund) return stripeError(res, 404, { ...invalid(`No such refund: '${refundPath[1]}'`, 'id'), code: 'resource_missing' });
      return send(200, refund);
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(url.pathname);
    const session = match ? sessions.get(match[1] ?? '') : undefined;
    if (match && !session) {
      return stripeError(res, 404, { ...invalid(`No such checkout.session: '${match[1]}'`, 'session'), code: 'resource_missing' });
    }
    if (session && req.method === 'GET' && !match?.[2]) return send(200, session);
    if (session && req.method === 'POST' && match?.[2]) {
      if (session.status !== 'open') {
        return stripeError(res, 400, invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This session has a status of "${session.status}".`));
      }
      session.status = 'expired';
      return send(200, session);
    }
    stripeError(res, 404, invalid(`Unrecognized request URL (${req.method}: ${url.pathname}).`));
  }

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const stripe = new Stripe(secretKey);

  return {
    url,
    secretKey,
    webhookSecret,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: url },
    requests,
    sessions,
    refunds,
    setRefundStatus(status) {
      refundStatus = status;
    },
    settleRefund(refundId, status, failureReason) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`No refund ${refundId}`);
      if (status !== 'succeeded' && refund.status !== 'failed' && refund.status !== 'canceled') {
        const intent = intents.get(String(refund.payment_intent));
        if (intent) intent.refunded -= refund.amount;
      }
      refund.status = status;
      if (status !== 'succeeded') (refund as { failure_reason?: string }).failure_reason = failureReason ?? 'unknown';
      return refund;
    },
    chargeOf(refund) {
      const intent = intents.get(String(refund.payment_intent));
      if (!intent) throw new Error(`No payment intent ${String(refund.payment_intent)}`);
      const all = [...refunds.values()].filter((r) => r.payment_intent === intent.id);
      const refunded = all.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0);
      return {
        id: intent.charge,
        object: 'charge',
        amount: intent.amount,
        amount_refunded: refunded,
        currency: intent.currency,
        payment_intent: intent.id,
        refunded: refunded === intent.amount,
        status: 'succeeded',
        refunds: { object: 'list', data: all, has_more: false, url: `/v1/charges/${intent.charge}/refunds` },
      };
    },
    lastSession() {
      const all = [...sessions.values()];
      const last = all[all.length - 1];
      if (!last) throw new Error('No Checkout Session was created');
      return last;
    },
    pay(sessionId, paymentStatus = 'paid') {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = paymentStatus;
      session.payment_intent = `pi_${random(24)}`;
      intents.set(session.payment_intent, {
        id: session.payment_intent,
        charge: `ch_${random(24)}`,
        amount: session.amount_total ?? 0,
        currency: session.currency ?? 'usd',
        refunded: 0,
      });
      return session;
    },
    setDown(value) {
      down = value;
    },
    event(type, object) {
      const id = `evt_${random(24)}`;
      const payload = JSON.stringify({
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: now(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      });
      return { id, payload };
    },
    sign(payload, o = {}) {
      return stripe.webhooks.generateTestHeaderString({ payload, secret: o.secret ?? webhookSecret, timestamp: o.timestamp ?? now() });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
