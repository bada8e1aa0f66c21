import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { generateWebhookSecret, secretKey, signPayload, signWebhook } from './sign.js';

describe('webhook signing', () => {
  it('makes secrets of whsec_ and 32 random bytes in base64', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs "{id}.{timestamp}.{body}" with HMAC-SHA256 under the decoded key', () => {
    const secret = generateWebhookSecret();
    const body = '{"id":"evt_1","event":"BOOKING_CREATED"}';
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`evt_1.1700000000.${body}`).digest('base64');
    expect(signPayload(secret, 'evt_1', 1700000000, body)).toBe(`v1,${expected}`);
  });

  it('produces headers that the standardwebhooks library verifies', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ id: 'evt_abc', event: 'BOOKING_CREATED', timestamp: new Date().toISOString(), data: {} });
    const headers = signWebhook([secret], 'evt_abc', body);
    expect(headers['webhook-id']).toBe('evt_abc');
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('carries one signature per secret during a rotation, each verifiable on its own', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"hello":"world"}';
    const headers = signWebhook([current, previous], 'evt_rot', body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual({ hello: 'world' });
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual({ hello: 'world' });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  });

  it('is refused by receivers when the body or the timestamp is tampered with', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook([secret], 'evt_x', '{"a":1}');
    expect(() => new Webhook(secret).verify('{"a":2}', { ...headers })).toThrow(WebhookVerificationError);
    const old = signWebhook([secret], 'evt_x', '{"a":1}', new Date(Date.now() - 10 * 60_000));
    expect(() => new Webhook(secret).verify('{"a":1}', { ...old })).toThrow(/too old/);
  });
});
