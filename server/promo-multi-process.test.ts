import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startTestServer, type TestServer } from './test-helpers/cli.js';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from './test-helpers/postgres.js';

// Two real `outing serve` processes (the built bin/outing.js: `npm run build:server` first) over one
// PostgreSQL database: a promo code's uses are taken by one conditional UPDATE, so bookings racing
// for its last uses on two processes never take more than it has.

interface Answer {
  status: number;
  body: { data?: { id: string; discount: unknown; total: string; uses?: number }; error?: { code: string; details?: { reason: string } } };
}

describe.skipIf(!testDatabaseUrl())('promo code uses over two outing serve processes on PostgreSQL', () => {
  let database: TestDatabase;
  let apiKey: string;
  let servers: TestServer[] = [];

  async function api(server: TestServer, method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const init = await runCli(['init', '--name', 'Two Harbours', '--email', 'ops@two.example', '--timezone', 'UTC', '--database-url', database.url]);
    expect(init.code, init.stderr).toBe(0);
    ({ apiKey } = JSON.parse(init.stdout) as { apiKey: string });
    const env = { DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '100000' };
    servers = await Promise.all([0, 1].map(() => startTestServer({ dbPath: null, env, startTimeoutMs: 40_000 })));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await database?.drop();
  });

  it('12 bookings at once, 6 on each process, for a code of 3 uses: exactly 3 take it', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const exp = await api(a, 'POST', '/v1/experiences', {
      name: 'Race boat', description: '', duration: 60, price: 2000, maxParticipants: 50,
      schedule: { timezone: 'UTC', weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, ['18:00']])) },
    });
    expect(exp.status, JSON.stringify(exp.body)).toBe(201);
    const code = await api(b, 'POST', '/v1/promo-codes', { code: 'race3', discountType: 'PERCENT', discountValue: 50, maxUses: 3 });
    expect(code.status, JSON.stringify(code.body)).toBe(201);
    const startTime = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}T18:00:00.000Z`;

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api(i % 2 ? a : b, 'POST', '/v1/bookings', {
          experienceId: exp.body.data!.id, startTime, participants: 1, customerName: `Guest ${i}`, customerEmail: `guest${i}@example.com`, promoCode: 'RACE3',
        }),
      ),
    );
    const made = answers.filter((x) => x.status === 201);
    expect(made).toHaveLength(3);
    for (const x of made) expect(x.body.data).toMatchObject({ discount: { code: 'RACE3', amount: '10.00' }, total: '10.00' });
    for (const x of answers.filter((y) => y.status !== 201)) expect([x.status, x.body.error?.code, x.body.error?.details]).toEqual([400, 'PROMO_CODE_INVALID', { reason: 'USED_UP' }]);
    for (const server of servers) expect((await api(server, 'GET', `/v1/promo-codes/${code.body.data!.id}`)).body.data?.uses).toBe(3);

    // A cancellation on one process frees a use the other can take.
    const cancelled = await api(a, 'PATCH', `/v1/bookings/${made[0]!.body.data!.id}/cancel`, {});
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const again = await api(b, 'POST', '/v1/bookings', {
      experienceId: exp.body.data!.id, startTime, participants: 1, customerName: 'Late', customerEmail: 'late@example.com', promoCode: 'race3',
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await api(a, 'GET', `/v1/promo-codes/${code.body.data!.id}`)).body.data?.uses).toBe(3);
  }, 60_000);
});
