/**
 * A bounded, seeded fuzz of every route that /v1/openapi.json lists (and the key-less routes at the
 * root), over real HTTP against the real server: valid-ish and broken bodies, queries, path ids,
 * methods, content types, keys and headers, huge and deep bodies, control characters (NUL included)
 * in every string, id and parameter. Whatever comes in, the answer is never a 5xx, every error is the
 * contract's envelope, no answer leaks a stack trace or SQL, and a request carrying a NUL never
 * succeeds. It runs on SQLite and again on PostgreSQL; fuzz-engines.test.ts compares the two.
 * `RELIABILITY_SEED=n` replays a run; `FUZZ_REQUESTS=n` makes it longer.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processDatabase, startTestServer, testEngine, type ProcessDatabase, type TestServer } from '../server/test-helpers/index.js';
import { InputMaker, type Ids } from './fuzz-inputs.js';
import {
  closedPort, controlCharacterRequests, FUZZ_SERVER_ENV, idsOf, makeRecords, makeRequest, operationsOf, otherKeys, problemsOf, ROOT_ROUTES, safeUrlsOn, send,
  type Answer, type FuzzKeys, type FuzzRequest,
} from './fuzz-requests.js';
import { call, SEED, seededRandom } from './support.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1500);
const CONCURRENCY = 4;
/** A time bound as well as a count, so a slow machine still ends in a few minutes. */
const TIME_LIMIT_MS = 150_000;

describe(`a seeded fuzz of every route on ${testEngine()} (seed ${SEED}, ${REQUESTS} requests)`, () => {
  let db: ProcessDatabase;
  let server: TestServer;
  let keys: FuzzKeys;
  let doc: any;
  let ids: Ids;
  let safeUrls: string[];

  beforeAll(async () => {
    db = await processDatabase();
    server = await startTestServer({ ...db.server, demo: true, startTimeoutMs: 90_000, env: FUZZ_SERVER_ENV });
    if (!server.demo) throw new Error('serve --demo printed no keys');
    const { secretKey, publishableKey, icalFeedUrl } = server.demo;
    safeUrls = safeUrlsOn(await closedPort());
    // Other keys: another organization's, and a revoked one (the CLI shares the database with the server).
    keys = { secretKey, publishableKey, ...(await otherKeys(server.url, secretKey, db.args)) };
    const bookingId = await makeRecords(server.url, secretKey, safeUrls);
    ids = await idsOf(server.url, secretKey, { bookingId, icalFeedUrl });
    doc = (await call(server.url, 'GET', '/v1/openapi.json')).body;
  }, 180_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.drop();
  });

  /** Inputs at the edges of the calendar and of integers, sent every run whatever the seed. */
  function edgeCases(): FuzzRequest[] {
    const exp = ids.byKind.get('experience')?.[0] ?? 'exp_x';
    const json = { authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' };
    const cases: [string, string, unknown?][] = [
      ['GET', '/v1/bookings?startDate=9999-12-31&endDate=9999-12-31'],
      ['GET', '/v1/bookings?endDate=9999-12-31'],
      ['GET', '/v1/bookings?startDate=0001-01-01'],
      ['GET', '/v1/bookings?startDate=9999-12-31T23:59:59Z&endDate=9999-12-31T23:59:59%2B14:00'],
      ['GET', '/v1/bookings?limit=100&offset=9007199254740993'],
      ['GET', `/v1/availability?experienceId=${exp}&startDate=9999-12-01&endDate=9999-12-31`],
      ['GET', `/v1/availability?experienceId=${exp}&startDate=1970-01-01&endDate=1970-01-31`],
      ['GET', `/v1/availability?experienceId=${exp}&participants=99999999999999999999`],
      ['GET', '/v1/customers?search=%25%5F%5C'],
      ['POST', '/v1/bookings', { experienceId: exp, startTime: '9999-12-31T23:59:59Z', participants: 1, customerName: 'E', customerEmail: 'e@example.com' }],
      ['POST', '/v1/bookings', { experienceId: exp, startTime: '+275760-09-13T00:00:00.000Z', participants: 1, customerName: 'E', customerEmail: 'e@example.com' }],
      ['PATCH', `/v1/experiences/${exp}`, { schedule: { weekly: { mon: ['23:59'] }, timezone: 'Pacific/Kiritimati', startDate: '9999-12-30', endDate: '9999-12-31' } }],
    ];
    const nul: [string, string, unknown?][] = [
      ['GET', '/v1/bookings?experienceId=%00'],
      ['GET', `/v1/availability?experienceId=${exp}%00`],
      ['GET', '/v1/experiences/%00'],
      ['GET', '/v1/organization?x=%00'],
      ['POST', '/v1/experiences', { name: 'a\u0000b', description: '', duration: 60, price: 100, maxParticipants: 5 }],
      ['POST', '/v1/bookings', { experienceId: '\u0000', startTime: '2030-01-01T10:00:00Z', participants: 1, customerName: 'E', customerEmail: 'e@example.com' }],
      ['POST', '/v1/bookings', { experienceId: exp, startTime: '2030-01-01T10:00:00Z', participants: 1, customerName: 'E\u0000', customerEmail: 'e@example.com', metadata: { 'k\u0000': 'v' } }],
      ['GET', '/public/v1/availability?experienceId=%00'],
      ['POST', '/public/v1/bookings', { experienceId: exp, startTime: '2030-01-01T10:00:00Z', participants: 1, customerName: 'a\u0000b', customerEmail: 'e@example.com' }],
    ];
    const publicJson = { 'x-outing-key': keys.publishableKey, 'content-type': 'application/json' };
    return [...cases, ...nul].map(([method, path, body], i) => ({
      method,
      path,
      headers: path.startsWith('/public/') ? publicJson : json,
      body: body === undefined ? undefined : JSON.stringify(body),
      label: `edge ${i} ${method} ${path}`,
    }));
  }

  it('answers every request below 500, with the error envelope on every error', async () => {
    const random = seededRandom(SEED);
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(20);
    const inputs = new InputMaker(random, doc.components?.schemas ?? {}, safeUrls, ids);
    const all = [...ops, ...ROOT_ROUTES];
    const requests = [
      ...edgeCases(),
      ...controlCharacterRequests(random, ops, inputs, keys),
      ...Array.from({ length: REQUESTS }, (_, i) => makeRequest(random, all, inputs, keys, i)),
    ];

    const problems: string[] = [];
    const statuses = new Map<number, number>();
    const deadline = Date.now() + TIME_LIMIT_MS;
    let next = 0;
    let sent = 0;
    const worker = async () => {
      while (next < requests.length && Date.now() < deadline) {
        const req: FuzzRequest = requests[next++]!;
        let res: Answer;
        try {
          res = await send(server.url, req);
        } catch (err) {
          problems.push(`${req.label}: no answer (${(err as Error).message})`);
          continue;
        }
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        problems.push(...problemsOf(req, res));
        if (process.env.FUZZ_LOG) appendFileSync(process.env.FUZZ_LOG, `${res.status} ${req.label}\n`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    // Still standing, and nothing went wrong unseen in the background.
    const health = await call(server.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const errorLines = server.stdout.split('\n').filter((l) => l.includes('"level":"error"'));
    console.info(
      `fuzz (seed ${SEED}): ${sent} requests over ${all.length} routes; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    expect(problems.slice(0, 25)).toEqual([]);
    expect(errorLines.slice(0, 5)).toEqual([]);
    expect(sent).toBeGreaterThan(Math.min(REQUESTS, 300));
  }, 400_000);
});
