import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { migrate, openDatabase } from './sqlite/db.js';
import { readMigrations } from './migrations.js';
import { createTestDatabase, postgresSkipReason, testDatabaseUrl } from '../test-helpers/postgres.js';

// The PostgreSQL schema (migrations/postgres/) is the SQLite one (migrations/) translated: the same
// versions, tables, columns, keys, indexes and triggers, so that the row mappers and the meaning of
// every query carry over. These tests hold the two folders to each other. The PostgreSQL half needs
// a cluster (the global setup of vitest.config.ts starts one) and skips without it.

const here = dirname(fileURLToPath(import.meta.url));
const SQLITE_DIR = join(here, 'migrations');
const POSTGRES_DIR = join(here, 'migrations', 'postgres');
const sqliteMigrations = () => readMigrations(SQLITE_DIR);
const postgresMigrations = () => readMigrations(POSTGRES_DIR);

/** Instants (epoch milliseconds): BIGINT in PostgreSQL, whatever the table. */
const INSTANT = /(_at|_until|^at|^slot_start|^slot_end|^reminder_for)$/;
/** 0/1 flags: INTEGER in PostgreSQL, since the mappers compare them to 1. */
const FLAGS = ['online_payments', 'active', 'enabled', 'refund_required', 'guest_self_service', 'closed', 'email_receipt'];

describe('the PostgreSQL migrations', () => {
  it('are the SQLite migrations, version for version and name for name', () => {
    const names = (list: { version: number; name: string }[]) => list.map((m) => `${m.version} ${m.name}`);
    expect(names(postgresMigrations())).toEqual(names(sqliteMigrations()));
    expect(sqliteMigrations().length).toBeGreaterThan(0);
  });

  it('each say which SQLite change they are the form of', () => {
    for (const m of postgresMigrations()) {
      expect(m.sql.split('\n')[0], m.name).toMatch(new RegExp(`^-- PostgreSQL form of migration ${m.name.replace('.', '\\.')}\\b`));
      // The SQLite file of the same name is there to be the form of.
      expect(readFileSync(join(SQLITE_DIR, m.name), 'utf8').length, m.name).toBeGreaterThan(0);
    }
  });
});

const url = testDatabaseUrl();

describe(`the PostgreSQL schema against SQLite's${url ? '' : ` (skipped: ${postgresSkipReason()})`}`, () => {
  it.skipIf(!url)('applies in order on a fresh database and has the same tables, columns, keys, indexes and triggers', async () => {
    const sqlite = await sqliteAt(Infinity);
    onTestFinished(() => void sqlite.close());
    await withPostgres(async (client) => {
      const applied = await applyPostgres(client, Infinity);
      expect(applied).toEqual(postgresMigrations().map((m) => m.version));

      const lite = sqliteSchema(sqlite);
      const post = await postgresSchema(client);
      expect.soft(Object.keys(post.tables).sort()).toEqual(Object.keys(lite.tables).sort());
      for (const [table, liteColumns] of Object.entries(lite.tables)) {
        const postColumns = post.tables[table] ?? {};
        expect.soft(Object.keys(postColumns).sort(), table).toEqual(Object.keys(liteColumns).sort());
        for (const [column, l] of Object.entries(liteColumns)) {
          const p = postColumns[column];
          const where = `${table}.${column}`;
          if (p === undefined) continue; // reported above
          expect.soft(p.notNull, `${where} NOT NULL`).toBe(l.notNull);
          expect.soft(p.default, `${where} DEFAULT`).toBe(l.default);
          expect.soft(TYPE_FAMILY[l.type]?.includes(p.type), `${where}: SQLite ${l.type}, PostgreSQL ${p.type}`).toBe(true);
          if (INSTANT.test(column)) expect.soft(p.type, `${where} is an instant`).toBe('bigint');
          if (FLAGS.includes(column)) expect.soft(p.type, `${where} is a 0/1 flag`).toBe('integer');
          // AUTOINCREMENT (events.seq, activity.seq) is an identity; nothing else is.
          expect.soft(p.identity, `${where} identity`).toBe(l.autoincrement);
        }
      }
      expect.soft(post.uniqueKeys).toEqual(lite.uniqueKeys);
      expect.soft(post.foreignKeys).toEqual(lite.foreignKeys);
      expect.soft(post.indexes).toEqual(lite.indexes);
      expect.soft(post.triggers).toEqual(lite.triggers);
    });
  });

  it.skipIf(!url)('keeps the list counters as SQLite does: filled from the rows already there, then by trigger', async () => {
    // Rows written before migration 003 are counted by its INSERT ... SELECT; every later write by
    // the triggers: insert, cancel, a rewrite that changes no group, a move to another experience,
    // a delete, a customer moved to another organization, an erased customer, and an organization
    // deleted with its bookings and customers by cascade.
    const sqlite = await sqliteAt(2);
    onTestFinished(() => void sqlite.close());
    await withPostgres(async (client) => {
      await applyPostgres(client, 2);
      const both = async (sql: string, params: unknown[] = []) => {
        sqlite.prepare(sql).run(...params);
        await client.query(numbered(sql), params);
      };
      const insert = async (table: string, row: Record<string, unknown>) =>
        await both(`INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`, Object.values(row));

      const T0 = Date.UTC(2027, 2, 1, 8);
      for (const org of ['org_a', 'org_b']) {
        await insert('organizations', { id: org, name: org, email: `${org}@example.com`, timezone: 'Europe/Lisbon', created_at: T0, updated_at: T0 });
      }
      const experiences = { exp_a1: 'org_a', exp_a2: 'org_a', exp_b1: 'org_b' };
      for (const [id, org] of Object.entries(experiences)) {
        await insert('experiences', {
          id, org_id: org, name: id, description: '', duration: 60, price: 1000, max_participants: 50, created_at: T0, updated_at: T0,
        });
      }
      const customers = { cus_a1: 'org_a', cus_a2: 'org_a', cus_a3: 'org_a', cus_b1: 'org_b' };
      for (const [id, org] of Object.entries(customers)) {
        await insert('customers', { id, org_id: org, email: `${id}@example.com`, name: id, created_at: T0, updated_at: T0 });
      }
      let n = 0;
      const booking = async (experienceId: keyof typeof experiences, customerId: keyof typeof customers, status: string) => {
        n += 1;
        return await insert('bookings', {
          id: `bk_${n}`, org_id: experiences[experienceId], booking_number: `BK-${String(n).padStart(8, '0')}`, experience_id: experienceId,
          customer_id: customerId, slot_start: T0 + n * 3_600_000, slot_end: T0 + (n + 1) * 3_600_000, status, guest_name: `Guest ${n}`,
          guest_email: `g${n}@example.com`, participants: 2, unit_price: 1000, currency: 'EUR', source: 'API', created_at: T0 + n, updated_at: T0 + n,
        });
      };
      // Before migration 003: counted when it runs.
      await booking('exp_a1', 'cus_a1', 'CONFIRMED');
      await booking('exp_a1', 'cus_a1', 'PENDING');
      await booking('exp_a2', 'cus_a2', 'CONFIRMED');
      await booking('exp_b1', 'cus_b1', 'CONFIRMED');

      await migrate(sqlite, sqliteMigrations());
      await applyPostgres(client, Infinity);
      expect(await counters(client)).toEqual(sqliteCounters(sqlite));

      // After: counted by the triggers.
      await booking('exp_a1', 'cus_a1', 'CONFIRMED'); // bk_5
      await booking('exp_a2', 'cus_a1', 'CANCELLED'); // bk_6
      await booking('exp_a2', 'cus_a2', 'PENDING'); // bk_7
      await booking('exp_b1', 'cus_b1', 'PENDING'); // bk_8
      await insert('customers', { id: 'cus_a4', org_id: 'org_a', email: 'cus_a4@example.com', name: 'cus_a4', created_at: T0, updated_at: T0 });
      await both(`UPDATE bookings SET status = 'CANCELLED', cancelled_at = ? WHERE id = 'bk_1'`, [T0 + 100]);
      await both(`UPDATE bookings SET status = 'CONFIRMED', hold_expires_at = NULL WHERE id = 'bk_2'`);
      // The store's UPDATE sets every mutable column, status included, to the same value.
      await both(`UPDATE bookings SET status = status, guest_name = 'Renamed', sequence = sequence + 1 WHERE id = 'bk_5'`);
      await both(`UPDATE bookings SET experience_id = 'exp_a1' WHERE id = 'bk_7'`);
      await both(`DELETE FROM bookings WHERE id = 'bk_3'`);
      await both(`UPDATE customers SET org_id = 'org_b' WHERE id = 'cus_a3'`);
      await both(`UPDATE customers SET name = 'Renamed' WHERE id = 'cus_a4'`);
      await both(`DELETE FROM customers WHERE id = 'cus_a4'`);
      const afterWrites = sqliteCounters(sqlite);
      expect(await counters(client)).toEqual(afterWrites);
      expect(afterWrites.bookings).toContainEqual(['org_a', 'exp_a1', 'CANCELLED', 1]);

      await both(`DELETE FROM organizations WHERE id = 'org_b'`);
      const afterCascade = sqliteCounters(sqlite);
      expect(await counters(client)).toEqual(afterCascade);
      expect(afterCascade.customers).toContainEqual(['org_b', 0]);

      // And each counter is the count of its rows (a group without rows counts 0).
      const truth = await client.query<{ org_id: string; experience_id: string; status: string; n: string }>(
        'SELECT org_id, experience_id, status, count(*) AS n FROM bookings GROUP BY 1, 2, 3',
      );
      const counted = new Map(truth.rows.map((r) => [`${r.org_id} ${r.experience_id} ${r.status}`, Number(r.n)]));
      for (const [org, experience, status, count] of afterCascade.bookings) {
        expect(count, `${org} ${experience} ${status}`).toBe(counted.get(`${org} ${experience} ${status}`) ?? 0);
      }
    });
  });
});

// ---- SQLite ----

type Sqlite = ReturnType<typeof openDatabase>;

/** An in-memory SQLite database with the migrations up to `version` applied. */
async function sqliteAt(version: number): Promise<Sqlite> {
  const db = openDatabase(':memory:');
  await migrate(db, sqliteMigrations().filter((m) => m.version <= version)); // awaited in case migrate turns async
  return db;
}

interface Column {
  type: string;
  notNull: boolean;
  default: string | null;
}
interface Schema<C> {
  tables: Record<string, Record<string, C>>;
  /** Per table, each primary key and unique constraint or index, as its sorted columns. */
  uniqueKeys: Record<string, string[]>;
  /** Per table, `column -> table(column) ON DELETE action`. */
  foreignKeys: Record<string, string[]>;
  /** Per index made by CREATE INDEX: `table unique? partial?`. */
  indexes: Record<string, string>;
  /** Per trigger: its table. */
  triggers: Record<string, string>;
}

/** SQLite types and the PostgreSQL types they translate to. */
const TYPE_FAMILY: Record<string, string[]> = {
  INTEGER: ['integer', 'bigint'],
  TEXT: ['text'],
  BLOB: ['bytea'],
  REAL: ['double precision'],
};

function sqliteSchema(db: Sqlite): Schema<Column & { autoincrement: boolean }> {
  const all = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
  const tables = all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'",
  );
  const schema: Schema<Column & { autoincrement: boolean }> = { tables: {}, uniqueKeys: {}, foreignKeys: {}, indexes: {}, triggers: {} };
  for (const { name: table, sql } of tables) {
    const columns = all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
      'SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)',
      table,
    );
    schema.tables[table] = Object.fromEntries(
      columns.map((c) => [
        c.name,
        {
          type: c.type.toUpperCase(),
          // A PostgreSQL primary key is NOT NULL; SQLite's (but an INTEGER PRIMARY KEY's) is not, a quirk.
          notNull: c.notnull === 1 || c.pk > 0,
          default: c.dflt_value,
          autoincrement: c.pk > 0 && /AUTOINCREMENT/i.test(sql),
        },
      ]),
    );
    const keys = all<{ name: string; unique: number; origin: string; partial: number }>('SELECT * FROM pragma_index_list(?)', table)
      .filter((i) => i.unique === 1 && i.partial === 0)
      .map((i) => all<{ name: string }>('SELECT name FROM pragma_index_info(?)', i.name).map((c) => c.name).sort().join(','));
    // An INTEGER PRIMARY KEY is the rowid: no index of its own.
    const primaryKey = columns.filter((c) => c.pk > 0);
    if (primaryKey.length === 1 && primaryKey[0]!.type.toUpperCase() === 'INTEGER' && !keys.includes(primaryKey[0]!.name)) {
      keys.push(primaryKey[0]!.name);
    }
    schema.uniqueKeys[table] = keys.sort();
    schema.foreignKeys[table] = all<{ from: string; table: string; to: string; on_delete: string }>(
      'SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)',
      table,
    )
      .map((f) => `${f.from} -> ${f.table}(${f.to}) ON DELETE ${f.on_delete}`)
      .sort();
  }
  for (const i of all<{ name: string; tbl_name: string }>("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")) {
    const info = all<{ name: string; unique: number; partial: number }>('SELECT * FROM pragma_index_list(?)', i.tbl_name).find((x) => x.name === i.name)!;
    schema.indexes[i.name] = `${i.tbl_name}${info.unique ? ' unique' : ''}${info.partial ? ' partial' : ''}`;
  }
  for (const t of all<{ name: string; tbl_name: string }>("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'trigger'")) {
    schema.triggers[t.name] = t.tbl_name;
  }
  return sortKeys(schema);
}

function sqliteCounters(db: Sqlite): Counters {
  return {
    bookings: db.prepare('SELECT org_id, experience_id, status, n FROM booking_counts ORDER BY 1, 2, 3').raw(true).all() as Counters['bookings'],
    customers: db.prepare('SELECT org_id, n FROM customer_counts ORDER BY 1').raw(true).all() as Counters['customers'],
  };
}

// ---- PostgreSQL ----

interface Counters {
  bookings: [string, string, string, number][];
  customers: [string, number][];
}

/** A fresh database on the test cluster, dropped after `work`. */
async function withPostgres(work: (client: pg.Client) => Promise<void>): Promise<void> {
  const database = await createTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
    await database.drop();
  }
}

/**
 * Applies the PostgreSQL migrations up to `version` not yet applied, in order, each in its own
 * transaction and recorded in schema_migrations, as `migrate` does for SQLite; answers the versions applied.
 */
async function applyPostgres(client: pg.Client, version: number): Promise<number[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
  const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
  const done: number[] = [];
  for (const m of postgresMigrations()) {
    if (m.version > version || applied.has(m.version)) continue;
    await client.query('BEGIN');
    try {
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw new Error(`${m.name}: ${(err as Error).message}`);
    }
    done.push(m.version);
  }
  return done;
}

async function postgresSchema(client: pg.Client): Promise<Schema<Column & { identity: boolean }>> {
  const rows = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql)).rows;
  const schema: Schema<Column & { identity: boolean }> = { tables: {}, uniqueKeys: {}, foreignKeys: {}, indexes: {}, triggers: {} };
  const columns = await rows<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null; is_identity: string }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default, c.is_identity
     FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'`,
  );
  for (const c of columns) {
    (schema.tables[c.table_name] ??= {})[c.column_name] = {
      type: c.data_type,
      notNull: c.is_nullable === 'NO',
      // 'USD'::text is SQLite's 'USD'.
      default: c.column_default === null ? null : c.column_default.replace(/::[a-z ]+$/, ''),
      identity: c.is_identity === 'YES',
    };
  }
  const keys = await rows<{ table: string; columns: string[] }>(
    `SELECT t.relname AS table, array(SELECT a.attname::text FROM unnest(x.indkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k) AS columns
     FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND x.indisunique AND x.indpred IS NULL AND t.relname <> 'schema_migrations'`,
  );
  for (const table of Object.keys(schema.tables)) schema.uniqueKeys[table] = [];
  for (const k of keys) schema.uniqueKeys[k.table]!.push([...k.columns].sort().join(','));
  for (const list of Object.values(schema.uniqueKeys)) list.sort();
  const foreign = await rows<{ table: string; from: string; target: string; to: string; on_delete: string }>(
    `SELECT t.relname AS table, a.attname AS from, r.relname AS target, ra.attname AS to,
       CASE c.confdeltype WHEN 'a' THEN 'NO ACTION' WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' ELSE 'SET DEFAULT' END AS on_delete
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
     WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  for (const table of Object.keys(schema.tables)) schema.foreignKeys[table] = [];
  for (const f of foreign) schema.foreignKeys[f.table]!.push(`${f.from} -> ${f.target}(${f.to}) ON DELETE ${f.on_delete}`);
  for (const list of Object.values(schema.foreignKeys)) list.sort();
  // Indexes made by CREATE INDEX: those behind no primary key or unique constraint.
  const indexes = await rows<{ name: string; table: string; unique: boolean; partial: boolean }>(
    `SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique, x.indpred IS NOT NULL AS partial
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
  );
  for (const i of indexes) schema.indexes[i.name] = `${i.table}${i.unique ? ' unique' : ''}${i.partial ? ' partial' : ''}`;
  const triggers = await rows<{ name: string; table: string }>(
    `SELECT g.tgname AS name, t.relname AS table FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE NOT g.tgisinternal AND n.nspname = current_schema()`,
  );
  for (const t of triggers) schema.triggers[t.name] = t.table;
  return sortKeys(schema);
}

async function counters(client: pg.Client): Promise<Counters> {
  const bookings = await client.query({ text: 'SELECT org_id, experience_id, status, n FROM booking_counts ORDER BY 1, 2, 3', rowMode: 'array' });
  const customers = await client.query({ text: 'SELECT org_id, n FROM customer_counts ORDER BY 1', rowMode: 'array' });
  return { bookings: bookings.rows as Counters['bookings'], customers: customers.rows as Counters['customers'] };
}

/** SQLite's `?` placeholders as PostgreSQL's `$1, $2, …` (the statements here hold no '?' in a string). */
function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

function sortKeys<T extends object>(schema: T): T {
  const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, sorted(v as Record<string, unknown>)])) as T;
}
