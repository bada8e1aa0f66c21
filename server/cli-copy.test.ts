import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, migrate, openDatabase, type Db } from './store/sqlite/db.js';
import { readMigrations } from './store/migrations.js';
import { connectPostgres, type PgDb } from './store/postgres/db.js';
import { openPostgresStore } from './store/postgres/index.js';
import { runCli, startTestServer, tempDir, type TestServer } from './test-helpers/cli.js';
import { createTestDatabase, postgresSkipReason, testDatabaseUrl, type TestDatabase } from './test-helpers/postgres.js';

// `outing copy --from FILE --to URL` on a real installation: the demo's month of bookings, payments,
// events, activity, users and messages, plus a webhook endpoint with pending deliveries and a
// counter that went back to 0. Every row of every table must arrive as it was.

const url = testDatabaseUrl();

function expectOneLineError(result: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^outing: .+\n$/);
  expect(result.stderr).toMatch(message);
}

/** The tables of the SQLite file, as the copy sees them (schema_migrations is each engine's own). */
function sqliteTables(db: Db): string[] {
  return (
    db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations' ORDER BY name`).all() as {
      name: string;
    }[]
  ).map((r) => r.name);
}

/** The same order on both engines: the primary key, or every column for a table without one (busy_intervals). */
function orderOf(db: Db, table: string): string {
  const key = (db.prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk').all(table) as { name: string }[]).map((r) => `"${r.name}"`);
  if (key.length) return key.join(', ');
  const all = (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all(table) as { name: string }[]).map((r) => `"${r.name}" NULLS FIRST`);
  return all.join(', ');
}

/** Rows compared as values: Buffers (BLOB, BYTEA) as hex, everything else as it is. */
const normalise = (rows: Record<string, unknown>[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? `hex:${v.toString('hex')}` : v])));

describe.skipIf(!url)(`outing copy${url ? '' : ` (skipped: ${postgresSkipReason()})`}`, () => {
  let dir: string;
  let dbPath: string;
  let secretKey: string;
  let publishableKey: string;
  let target: TestDatabase;
  const databases: TestDatabase[] = [];
  const servers: TestServer[] = [];

  beforeAll(async () => {
    dir = tempDir('outing-copy-');
    dbPath = join(dir, 'outing.db');
    const server = await startTestServer({ dbPath, demo: true });
    servers.push(server);
    secretKey = server.demo!.secretKey;
    publishableKey = server.demo!.publishableKey;
    const auth = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
    // A webhook endpoint, then a cancellation: an event with a delivery waiting for its endpoint.
    const endpoint = await fetch(`${server.url}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: 'https://hooks.invalid/outing' }),
    });
    expect(endpoint.status, await endpoint.clone().text()).toBe(201);
    const list = (await (await fetch(`${server.url}/v1/bookings?status=CONFIRMED&limit=1`, { headers: auth })).json()) as { data: { id: string }[] };
    const cancel = await fetch(`${server.url}/v1/bookings/${list.data[0]!.id}/cancel`, { method: 'PATCH', headers: auth, body: JSON.stringify({ reason: 'copy test' }) });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    await server.stop();

    // A counter that went back to 0 keeps its row in SQLite (the triggers count it down): the copy
    // must keep it too, which recounting the copied bookings would not.
    const db = openDatabase(dbPath);
    const smallest = db.prepare(`SELECT experience_id FROM booking_counts WHERE status = 'CANCELLED' AND n > 0 ORDER BY n, experience_id LIMIT 1`).get() as {
      experience_id: string;
    };
    db.prepare(`UPDATE bookings SET status = 'CONFIRMED', cancelled_at = NULL, cancellation_reason = NULL WHERE experience_id = ? AND status = 'CANCELLED'`).run(smallest.experience_id);
    expect(db.prepare(`SELECT n FROM booking_counts WHERE experience_id = ? AND status = 'CANCELLED'`).get(smallest.experience_id)).toEqual({ n: 0 });
    db.close();

    target = await createTestDatabase();
    databases.push(target);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await Promise.all(databases.map((d) => d.drop()));
  });

  it('copies every row of every table, keys and token hashes included, and the server serves them', async () => {
    const started = performance.now();
    const copied = await runCli(['copy', '--from', dbPath, '--to', target.url]);
    const seconds = (performance.now() - started) / 1000;
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stderr).toBe('');
    expect(copied.stdout.trim().split('\n')).toHaveLength(1);
    const printed = JSON.parse(copied.stdout) as { from: string; to: string; tables: number; rows: number };
    expect(Object.keys(printed)).toEqual(['from', 'to', 'tables', 'rows']);
    const sqlite = connect(dbPath, { readonly: true });
    const pg: PgDb = connectPostgres(target.url, { max: 1 });
    try {
      const tables = sqliteTables(sqlite);
      const total = tables.reduce((sum, t) => sum + (sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n, 0);
      expect(printed).toEqual({ from: dbPath, to: target.url, tables: tables.length, rows: total });
      console.info(`outing copy: ${total} rows in ${tables.length} tables, ${seconds.toFixed(2)} s with the CLI's start (${Math.round(total / seconds)} rows/s)`);

      // Table by table, every row, in primary key order on both sides.
      for (const table of tables) {
        const order = orderOf(sqlite, table);
        const lite = sqlite.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all() as Record<string, unknown>[];
        const post = await pg.all<Record<string, unknown>>(`SELECT * FROM "${table}" ORDER BY ${order}`);
        expect(normalise(post), table).toEqual(normalise(lite));
      }
      // What the demo and the set-up above made is all there to compare.
      for (const table of ['organizations', 'api_keys', 'bookings', 'payments', 'events', 'activity', 'users', 'messages', 'webhook_deliveries', 'calendar_feeds', 'booking_counts', 'customer_counts']) {
        expect((sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n, table).toBeGreaterThan(0);
      }
      expect(await pg.get(`SELECT n FROM booking_counts WHERE n = 0`)).toEqual({ n: 0 });
      // The counter triggers are on again: they count what comes after the copy.
      const triggers = await pg.all<{ tgname: string; tgenabled: string }>(`SELECT tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`);
      expect(triggers.length).toBeGreaterThan(0);
      expect(triggers.every((t) => t.tgenabled === 'O')).toBe(true);

      // A server on the copy: the key made before the copy (only its hash was copied) still works.
      const server = await startTestServer({ dbPath: null, args: ['--database-url', target.url] });
      servers.push(server);
      const res = await fetch(`${server.url}/v1/bookings?limit=100`, { headers: { authorization: `Bearer ${secretKey}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { id: string }[]; total?: number };
      const orgId = (sqlite.prepare('SELECT org_id FROM api_keys LIMIT 1').get() as { org_id: string }).org_id;
      const bookings = sqlite.prepare('SELECT count(*) AS n FROM bookings WHERE org_id = ?').get(orgId) as { n: number };
      expect(body.data.length).toBe(Math.min(100, bookings.n));
      if (body.total !== undefined) expect(body.total).toBe(bookings.n);
      // The publishable key's value came over with its row: the dashboard there still fills embed snippets with it.
      const keys = (await (await fetch(`${server.url}/v1/api-keys`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as {
        data: { type: string; key: string | null }[];
      };
      expect(keys.data.filter((k) => k.type === 'publishable').map((k) => k.key)).toEqual([publishableKey]);
      expect(keys.data.filter((k) => k.type === 'secret').map((k) => k.key)).toEqual([null]);
      await server.stop();

      // New events and activity take seq numbers after the copied ones.
      const maxSeq = (sqlite.prepare('SELECT max(seq) AS m FROM events').get() as { m: number }).m;
      const store = await openPostgresStore(target.url);
      try {
        await store.events.insertEvent({ id: 'evt_copytest000000000001', orgId, type: 'booking.updated', bookingId: null, payload: '{}', createdAt: Date.now() });
      } finally {
        await store.close();
      }
      expect(await pg.get(`SELECT seq FROM events WHERE id = 'evt_copytest000000000001'`)).toEqual({ seq: maxSeq + 1 });
      const maxActivity = (sqlite.prepare('SELECT max(seq) AS m FROM activity').get() as { m: number }).m;
      const next = await pg.get<{ n: number }>(`SELECT nextval(pg_get_serial_sequence('activity', 'seq')) AS n`);
      expect(next).toEqual({ n: maxActivity + 1 });
    } finally {
      sqlite.close();
      await pg.pool.end();
    }

    // The same copy again: the target is not empty any more, and nothing is changed.
    const again = await runCli(['copy', '--from', dbPath, '--to', target.url]);
    expectOneLineError(again, /^outing: The target database is not empty: table organizations has rows\n$/);
  });

  it('refuses a missing file, missing flags, a --to that is not a postgres URL, a file a server holds and an outdated SQLite schema', async () => {
    const empty = await createTestDatabase();
    databases.push(empty);
    expectOneLineError(await runCli(['copy', '--from', join(dir, 'nope.db'), '--to', empty.url]), /No SQLite database at .*nope\.db/);
    expectOneLineError(await runCli(['copy', '--to', empty.url]), /--from is required/);
    expectOneLineError(await runCli(['copy', '--from', dbPath]), /--to is required/);
    expectOneLineError(await runCli(['copy', '--from', dbPath, '--to', join(dir, 'other.db')]), /--to must be a postgres:\/\/ URL/);

    // A server still running on the file: the copy would miss what it writes next.
    const running = await startTestServer({ dbPath });
    servers.push(running);
    expectOneLineError(await runCli(['copy', '--from', dbPath, '--to', empty.url]), /A running Outing server holds .*outing\.db: stop it, then copy/);
    await running.stop();

    const old = join(dir, 'old.db');
    const db = openDatabase(old);
    migrate(db, readMigrations().slice(0, -1));
    db.close();
    // Versions may skip numbers (each change keeps the number it was given), so the one before the last is read, not computed.
    const [previous, latest] = readMigrations().slice(-2).map((m) => m.version);
    expectOneLineError(
      await runCli(['copy', '--from', old, '--to', empty.url]),
      new RegExp(`schema version ${previous}, not ${latest}: run outing migrate --db .*old\\.db first`),
    );

    // Each was refused before the target was touched: not even the schema was made.
    const pg = connectPostgres(empty.url, { max: 1 });
    try {
      expect(await pg.all(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)).toEqual([]);
    } finally {
      await pg.pool.end();
    }
  });

  it('copies into a database already migrated (outing migrate --database-url URL first) as into a new one', async () => {
    const migrated = await createTestDatabase({ migrated: true });
    databases.push(migrated);
    const copied = await runCli(['copy', '--from', dbPath, '--to', migrated.url]);
    expect(copied.code, copied.stderr).toBe(0);
    const printed = JSON.parse(copied.stdout) as { tables: number; rows: number };
    const sqlite = connect(dbPath, { readonly: true });
    try {
      const tables = sqliteTables(sqlite);
      const total = tables.reduce((sum, t) => sum + (sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n, 0);
      expect(printed).toMatchObject({ tables: tables.length, rows: total });
    } finally {
      sqlite.close();
    }
  });

  it('has its help', async () => {
    const help = await runCli(['copy', '--help']);
    expect(help.code).toBe(0);
    expect(help.stderr).toMatch(/^Usage: outing copy --from FILE --to URL\n/);
    const usage = await runCli(['--help']);
    expect(usage.stderr).toMatch(/\n {2}copy --from FILE --to URL +copy a SQLite installation into an empty PostgreSQL database\n/);
  });
});
