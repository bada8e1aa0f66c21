import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): what Outing sends is what the
 * `standardwebhooks` libraries verify, so integrators need no code of ours.
 */

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>` for one secret. */
export function signPayload(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The three Standard Webhooks headers for one attempt. With several secrets (during a rotation)
 * the signatures are space-separated, newest first, and a receiver accepts any one that matches.
 * Also useful to sign test payloads when writing a receiver.
 */
export function signWebhook(secrets: readonly string[], webhookId: string, body: string, at: Date = new Date()): SignedHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signPayload(s, webhookId, timestamp, body)).join(' '),
  };
}
