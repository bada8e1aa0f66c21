import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { openPostgresStore } from '../store/postgres/index.js';
import type { Store } from '../store/index.js';
import { addOrganization, testEngine, type TestOrganization } from '../test-helpers/index.js';
import { leaseMigratedDatabase, type TestDatabase } from '../test-helpers/postgres.js';

/** The few fields these tests read of an answer. */
interface Answer {
  data: { id: string; code: string; balance: string; voucher?: { amount: string } | null; redemptions: { amount: string }[] };
  error: { code: string };
}

// Two servers over one PostgreSQL database, each with its own pool of connections, as two processes
// behind a balancer: a voucher's balance and the guessing limit hold across them.
describe.skipIf(testEngine() !== 'postgres')('gift vouchers across two servers on one PostgreSQL database', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  const stores: Store[] = [];
  const apps: ReturnType<typeof createApp>['app'][] = [];
  let org: TestOrganization;
  let experienceId: string;

  beforeAll(async () => {
    database = await leaseMigratedDatabase();
    for (let i = 0; i < 2; i++) {
      const store = await openPostgresStore(database.url, { poolSize: 4 });
      stores.push(store);
      const config = loadConfig({ LOG_LEVEL: 'silent', TRUST_PROXY: 'true', PUBLIC_BOOKINGS_PER_MINUTE: '1000' }, { databaseUrl: database.url });
      apps.push(createApp({ store, config, logger: createLogger('silent'), guestMail: false }).app);
    }
    org = await addOrganization(stores[0]!);
    const exp = await call(0, 'POST', '/v1/experiences', {
      name: 'Walk', description: '', duration: 60, price: 2000, maxParticipants: 100,
      schedule: { weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, ['18:00']])) },
    });
    experienceId = exp.body.data.id;
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await database?.drop();
  });

  async function call(i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const publicPath = path.startsWith('/public/');
    const res = await apps[i]!.request(path, {
      method,
      headers: {
        ...(publicPath ? { 'x-outing-key': org.publishableKey } : { authorization: `Bearer ${org.secretKey}` }),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Answer };
  }
  const startTime = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}T18:00:00.000Z`;
  const booking = (i: number, more: Record<string, unknown>) => ({
    experienceId, startTime, participants: 1, customerName: `Guest ${i}`, customerEmail: `guest${i}@example.com`, ...more,
  });

  it('never spends more than the balance with bookings spread over both', async () => {
    const voucher = await call(0, 'POST', '/v1/gift-vouchers', { amount: '50.00' });
    const code: string = voucher.body.data.code;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2, 'POST', '/v1/bookings', booking(i, { voucherCode: code }))));
    for (const a of answers) expect([201, 400]).toContain(a.status);
    const spent = answers.filter((a) => a.status === 201).reduce((sum, a) => sum + Math.round(Number(a.body.data.voucher?.amount ?? 0) * 100), 0);
    const after = (await call(1, 'GET', `/v1/gift-vouchers/${voucher.body.data.id}`)).body.data;
    expect(spent).toBeLessThanOrEqual(5000);
    expect(Math.round(Number(after.balance) * 100)).toBe(5000 - spent);
    expect(after.redemptions.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0)).toBe(spent);
  });

  it('counts an address’s refused codes on both', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.99' };
    for (let i = 0; i < 10; i++) {
      const res = await call(i % 2, 'POST', '/public/v1/bookings', booking(100 + i, { voucherCode: `GV-ZZZZ-ZZZZ-ZZZ${i}` }), ip);
      expect(res.body.error.code).toBe('VOUCHER_INVALID');
    }
    for (const i of [0, 1]) {
      const res = await call(i, 'POST', '/public/v1/bookings', booking(200 + i, { promoCode: 'ANY' }), ip);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(500);
    }
  });
});
