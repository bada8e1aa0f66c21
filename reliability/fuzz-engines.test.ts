/**
 * The route fuzz on both engines at once: two real `outing serve` processes, one over SQLite and one
 * over PostgreSQL, set up alike through the CLI and the API, receive the same seeded requests (each
 * naming its own server's records) one after another. Every answer must hold on its own, as in
 * fuzz.test.ts, and the two must agree: the same status, and for an error the same code and the same
 * fields named. Control characters, NUL included, are in every kind of input, so a value one engine
 * stores and the other cannot shows up here. Runs in the PostgreSQL project of the reliability
 * suite (it needs the cluster); `RELIABILITY_SEED=n` replays a run, `FUZZ_ENGINE_REQUESTS=n` makes it longer.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processDatabase, runCli, startTestServer, tempDir, type ProcessDatabase, type TestServer } from '../server/test-helpers/index.js';
import { InputMaker, type Ids } from './fuzz-inputs.js';
import {
  closedPort, controlCharacterRequests, FUZZ_SERVER_ENV, idsOf, makeRecords, makeRequest, operationsOf, otherKeys, problemsOf, ROOT_ROUTES, safeUrlsOn, send,
  type Answer, type FuzzKeys, type FuzzRequest,
} from './fuzz-requests.js';
import { call, SEED, seededRandom } from './support.js';

const REQUESTS = Number(process.env.FUZZ_ENGINE_REQUESTS ?? 800);
/** A time bound as well as a count, so a slow machine still ends in a few minutes. */
const TIME_LIMIT_MS = 150_000;

/** Answers whose status depends on when a background job last ran, not on the engine: not compared. */
const TIMING_DEPENDENT = [/\/deliveries\/[^/]+\/retry/];

interface Side {
  name: 'sqlite' | 'postgres';
  db: Pick<ProcessDatabase, 'args' | 'server'> & { drop(): Promise<void> };
  server: TestServer;
  keys: FuzzKeys;
  ids: Ids;
}

/** What two engines must agree on: the status, and for an error its code and the fields it names. */
function gist(res: Answer): string {
  if (res.status < 400) return String(res.status);
  try {
    const { error } = JSON.parse(res.text) as { error: { code: string; details?: { path: string }[] } };
    const paths = (error.details ?? []).map((d) => d.path).sort();
    return `${res.status} ${error.code}${paths.length ? ` [${paths.join(', ')}]` : ''}`;
  } catch {
    return `${res.status} (not JSON)`;
  }
}

describe(`the seeded fuzz answers alike on SQLite and PostgreSQL (seed ${SEED}, ${REQUESTS} requests)`, () => {
  const sides: Side[] = [];
  let doc: any;
  let safeUrls: string[];

  beforeAll(async () => {
    safeUrls = safeUrlsOn(await closedPort());
    const sqlitePath = join(tempDir('outing-db-'), 'outing.db');
    const databases: [Side['name'], Side['db']][] = [
      ['sqlite', { args: ['--db', sqlitePath], server: { dbPath: sqlitePath }, drop: async () => {} }],
      ['postgres', await processDatabase()],
    ];
    for (const [name, db] of databases) {
      // The same organization, keys and records on both, made in the same order.
      const init = await runCli(['init', '--name', 'Fuzz Tours', '--email', 'owner@fuzz.example', '--timezone', 'UTC', '--currency', 'EUR', ...db.args]);
      if (init.code !== 0) throw new Error(`init on ${name}: ${init.stderr}`);
      const { apiKey: secretKey, publishableKey, icalFeedUrl } = JSON.parse(init.stdout) as { apiKey: string; publishableKey: string; icalFeedUrl: string };
      const server = await startTestServer({ ...db.server, startTimeoutMs: 90_000, env: FUZZ_SERVER_ENV });
      const keys = { secretKey, publishableKey, ...(await otherKeys(server.url, secretKey, db.args)) };
      const bookingId = await makeRecords(server.url, secretKey, safeUrls);
      sides.push({ name, db, server, keys, ids: await idsOf(server.url, secretKey, { bookingId, icalFeedUrl }) });
    }
    const [sqlite, postgres] = sides;
    if (!sqlite || !postgres || sqlite.db.args[0] !== '--db' || postgres.db.args[0] !== '--database-url') {
      throw new Error('this test needs a PostgreSQL cluster (the reliability-postgres project)');
    }
    // The requests name records by position: both servers must hold as many of each kind.
    const counts = (ids: Ids) => Object.fromEntries([...ids.byKind].map(([kind, list]) => [kind, list.length]));
    expect(counts(postgres.ids)).toEqual(counts(sqlite.ids));
    doc = (await call(sqlite.server.url, 'GET', '/v1/openapi.json')).body;
  }, 240_000);

  afterAll(async () => {
    for (const side of sides) {
      await side.server.stop('SIGKILL');
      await side.db.drop();
    }
  });

  it('gives each request the same answer on both, never a 5xx, and refuses every NUL', async () => {
    const [sqlite, postgres] = sides as [Side, Side];
    const apiOps = operationsOf(doc);
    const ops = [...apiOps, ...ROOT_ROUTES];
    // One list per server, from the same seed: the same choices, each naming its own server's records.
    const [forSqlite, forPostgres] = sides.map((side) => {
      const random = seededRandom(SEED);
      const inputs = new InputMaker(random, doc.components?.schemas ?? {}, safeUrls, side.ids);
      return [
        ...controlCharacterRequests(random, apiOps, inputs, side.keys),
        ...Array.from({ length: REQUESTS }, (_, i) => makeRequest(random, ops, inputs, side.keys, i)),
      ];
    }) as [FuzzRequest[], FuzzRequest[]];
    expect(forPostgres.map((r) => r.method)).toEqual(forSqlite.map((r) => r.method));
    const pairs = forSqlite.map((req, i): [FuzzRequest, FuzzRequest] => [req, forPostgres[i]!]);

    const problems: string[] = [];
    const differences: string[] = [];
    const deadline = Date.now() + TIME_LIMIT_MS;
    let sent = 0;
    let withControls = 0;
    for (const [onSqlite, onPostgres] of pairs) {
      if (Date.now() > deadline) break;
      let answers: [Answer, Answer];
      try {
        answers = await Promise.all([send(sqlite.server.url, onSqlite), send(postgres.server.url, onPostgres)]);
      } catch (err) {
        problems.push(`${onSqlite.label}: no answer (${(err as Error).message})`);
        continue;
      }
      sent++;
      if (/%(0[0-9a-f]|1[0-9a-f]|7f)|\\u00[01][0-9a-f]|\\u007f|\\[bfnrt]|\u007f/i.test(`${onSqlite.path} ${String(onSqlite.body ?? '')}`)) withControls++;
      problems.push(...problemsOf(onSqlite, answers[0]).map((p) => `sqlite ${p}`), ...problemsOf(onPostgres, answers[1]).map((p) => `postgres ${p}`));
      const [a, b] = answers.map(gist);
      if (a !== b && !TIMING_DEPENDENT.some((re) => re.test(onSqlite.path))) {
        differences.push(`${onSqlite.label}: SQLite ${a}, PostgreSQL ${b}`);
      }
    }

    console.info(`fuzz on both engines (seed ${SEED}): ${sent} pairs of requests, ${withControls} with control characters, ${differences.length} different answers`);
    expect(problems.slice(0, 25)).toEqual([]);
    expect(differences.slice(0, 25)).toEqual([]);
    // Still standing, and nothing went wrong unseen in the background.
    for (const side of sides) {
      expect((await call(side.server.url, 'GET', '/healthz')).status, side.name).toBe(200);
      expect(side.server.stdout.split('\n').filter((l) => l.includes('"level":"error"')).slice(0, 5), side.name).toEqual([]);
    }
    expect(sent).toBeGreaterThan(Math.min(REQUESTS, 200));
    expect(withControls).toBeGreaterThan(0);
  }, 400_000);
});
