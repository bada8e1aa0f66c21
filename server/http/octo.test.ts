import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OctoRoutes } from './octo.js';
import { OctoRefusal } from '../domain/octo.js';
import { UnitOfWork } from '../services/unit-of-work.js';
import { createLogger } from '../logger.js';
import { createTestApp, manualClock, type TestApp } from '../test-helpers/index.js';

describe('the /octo sub-app', () => {
  let t: TestApp;
  let logs: string[];
  let octo: OctoRoutes;
  beforeEach(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' }, now: manualClock(Date.UTC(2027, 2, 1, 8)).now });
    logs = [];
    const now = () => Date.UTC(2027, 2, 1, 8);
    octo = new OctoRoutes({
      store: t.store,
      now,
      work: new UnitOfWork(t.store, now, { guestMail: false }),
      limiter: { hit: async () => ({ allowed: true, limit: 0, remaining: 0, resetSeconds: 0 }) },
      rateLimitPerMinute: 0,
      logger: createLogger('error', (line) => void logs.push(line)),
    });
  });
  afterEach(() => t.close());

  const call = async (path: string, init: RequestInit = {}) => {
    const res = await octo.app.request(path, { ...init, headers: { authorization: `Bearer ${t.secretKey}`, ...init.headers } });
    return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
  };

  it('answers a fault of ours 500 in OCTO’s shape, without its message, and logs it', async () => {
    octo.op({ method: 'get', path: '/boom' }, () => {
      throw new TypeError('secret internals');
    });
    const res = await call('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'INTERNAL_SERVER_ERROR', errorMessage: expect.not.stringContaining('secret') });
    expect(logs.join('\n')).toContain('secret internals');
  });

  it('names the id at fault in the field of its code, and answers 400 for every OCTO refusal', async () => {
    octo.op({ method: 'get', path: '/refuse/:code' }, ({ params }) => {
      throw new OctoRefusal(params.code as never, 'No such thing', 'the-value');
    });
    expect((await call('/refuse/INVALID_AVAILABILITY_ID')).body).toEqual({ error: 'INVALID_AVAILABILITY_ID', errorMessage: 'No such thing', availabilityId: 'the-value' });
    expect((await call('/refuse/INVALID_BOOKING_UUID')).body).toEqual({ error: 'INVALID_BOOKING_UUID', errorMessage: 'No such thing', uuid: 'the-value' });
    const plain = await call('/refuse/UNPROCESSABLE_ENTITY');
    expect(plain).toMatchObject({ status: 400, body: { error: 'UNPROCESSABLE_ENTITY', errorMessage: 'No such thing' } });
    expect(plain.body).not.toHaveProperty('uuid');
  });

  it('turns the refusals of the shared machinery into OCTO’s: 409s are UNPROCESSABLE_ENTITY', async () => {
    const { Refusal } = await import('../domain/refusal.js');
    octo.op({ method: 'get', path: '/full' }, () => {
      throw new Refusal('CAPACITY_EXCEEDED', 'Not enough places');
    });
    expect(await call('/full')).toMatchObject({ status: 400, body: { error: 'UNPROCESSABLE_ENTITY', errorMessage: 'Not enough places' } });
  });

  it('applies the per-key rate limit of /v1, answering 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/octo/supplier')).status).toBe(200);
    const limited = await t.request('GET', '/octo/supplier');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body).toEqual({ error: 'TOO_MANY_REQUESTS', errorMessage: expect.any(String) });
  });
});
