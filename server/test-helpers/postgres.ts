import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectPostgres, migratePostgres, readPostgresMigrations } from '../store/postgres/db.js';

/**
 * PostgreSQL for tests. The cluster is the one `postgres-global-setup.ts` started for this run (or
 * the one `OUTING_TEST_DATABASE_URL` names); each test file makes databases of its own on it with
 * `createTestDatabase`, so files running in parallel never see each other's rows.
 *
 * A migrated database is a copy of `outing_template_<hash of the migrations>`, a template database
 * made and migrated once per cluster by the first caller (see `migratedTemplate`): copying it is far
 * cheaper than applying every migration to each test's database.
 *
 * Still, `CREATE DATABASE` copies the whole system catalogue (~0.7–1 s on the CI machine), so tests
 * that only need "a migrated database nobody else is using" take one with `leaseMigratedDatabase`:
 * its `drop` empties the database and keeps it for this process's next test instead.
 */

/** The cluster's URL, or undefined when there is none (PostgreSQL tests then skip: `it.skipIf(!testDatabaseUrl())`). */
export function testDatabaseUrl(): string | undefined {
  return process.env.OUTING_TEST_DATABASE_URL || undefined;
}

/** Why there is no cluster, for a skipped test's name or message. */
export function postgresSkipReason(): string {
  return (
    process.env.OUTING_TEST_POSTGRES_SKIPPED ??
    'no PostgreSQL cluster (OUTING_TEST_DATABASE_URL is unset: run through vitest.config.ts, whose global setup starts one)'
  );
}

export interface TestDatabase {
  /** A connection URL to the new database. */
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * A database with every migration of migrations/postgres applied (a copy of the migrated
   * template), instead of an empty one. Opening a store on it applies nothing.
   */
  migrated?: boolean;
}

/**
 * A new database `outing_t_<random>` on the test cluster: empty, made from template0, or with
 * `{ migrated: true }` a copy of the migrated template. Either way it has the C collation and
 * ctype, as Outing's PostgreSQL databases must: text sorts byte by byte, as in SQLite
 * (migrations/postgres/001_initial.sql says why).
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const clusterUrl = testDatabaseUrl();
  if (clusterUrl === undefined) throw new Error(`createTestDatabase: ${postgresSkipReason()}`);
  const template = options.migrated ? await migratedTemplate(clusterUrl) : 'template0';
  const name = `outing_t_${randomBytes(8).toString('hex')}`;
  await onCluster(clusterUrl, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${template} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`),
  );
  return databaseOn(clusterUrl, name);
}

function databaseOn(clusterUrl: string, name: string): TestDatabase {
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await onCluster(clusterUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Held (on the cluster's `postgres` database) while a process looks for, or makes, the template. */
const TEMPLATE_LOCK = 0x6f7574696e74; // "outint"

/** This process's answer of `migratedTemplate`, per cluster: each vitest worker asks the cluster once. */
const templates = new Map<string, Promise<string>>();

/**
 * The name of a database of the cluster that holds every migration and is marked as a template:
 * `outing_template_<hash>`, the hash being that of the migration files' names and contents, so that
 * a changed or added migration makes a new template (and a long-lived cluster named by
 * OUTING_TEST_DATABASE_URL keeps using the one it has while they are unchanged).
 *
 * Several vitest workers ask at once: the first takes an advisory lock and makes it, the others
 * wait on the lock and then find it. It is marked a template only once fully migrated, so a
 * database of that name that is not a template is what a run killed halfway left: made again.
 * Nothing connects to the template afterwards (ALLOW_CONNECTIONS false), as copying it requires.
 */
export function migratedTemplate(clusterUrl: string): Promise<string> {
  let template = templates.get(clusterUrl);
  if (!template) {
    template = makeTemplate(clusterUrl);
    templates.set(clusterUrl, template);
    template.catch(() => templates.delete(clusterUrl));
  }
  return template;
}

async function makeTemplate(clusterUrl: string): Promise<string> {
  const migrations = readPostgresMigrations();
  const hash = createHash('sha256');
  for (const m of migrations) hash.update(`${m.name}\0${m.sql}\0`);
  const name = `outing_template_${hash.digest('hex').slice(0, 16)}`;
  await onCluster(clusterUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const found = await client.query<{ datistemplate: boolean }>('SELECT datistemplate FROM pg_database WHERE datname = $1', [name]);
      if (found.rows[0]?.datistemplate) return;
      if (found.rows[0]) await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
      const database = databaseOn(clusterUrl, name);
      const db = connectPostgres(database.url, { max: 1 });
      try {
        await migratePostgres(db, migrations);
      } finally {
        await db.pool.end();
      }
      await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return name;
}

/** This process's emptied migrated databases, waiting for the next `leaseMigratedDatabase`. */
const idle = new Map<string, string[]>();

/**
 * A migrated database of the test cluster that no other test is using, as
 * `createTestDatabase({ migrated: true })` gives, but reused: `drop` ends every connection still
 * open to it and empties every table but the migrations' own (identities restarted, so ids count
 * from 1 again as in a new database), then keeps the database for this process's next lease.
 * Vitest runs each test file in a process of its own: the setup file `postgres-setup-file.ts` drops
 * the kept databases after the file (`dropIdleDatabases`), so a long-lived cluster named by
 * OUTING_TEST_DATABASE_URL gathers none.
 */
export async function leaseMigratedDatabase(): Promise<TestDatabase> {
  const clusterUrl = testDatabaseUrl();
  if (clusterUrl === undefined) throw new Error(`leaseMigratedDatabase: ${postgresSkipReason()}`);
  const free = idle.get(clusterUrl) ?? [];
  idle.set(clusterUrl, free);
  const reused = free.pop();
  const database = reused === undefined ? await createTestDatabase({ migrated: true }) : databaseOn(clusterUrl, reused);
  const name = new URL(database.url).pathname.slice(1);
  let released = false;
  return {
    url: database.url,
    async drop() {
      if (released) return;
      released = true;
      try {
        await emptyDatabase(database.url, name);
        free.push(name);
      } catch {
        await database.drop();
      }
    },
  };
}

/** Drops the databases `leaseMigratedDatabase` kept for reuse in this process. */
export async function dropIdleDatabases(): Promise<void> {
  for (const [clusterUrl, names] of idle) {
    for (const name of names.splice(0)) await databaseOn(clusterUrl, name).drop();
  }
}

/**
 * Ends other sessions on database `name` (at `url`), then deletes every row but schema_migrations'
 * and restarts the identities. Plain deletes with triggers and foreign-key checks off
 * (session_replication_role, a superuser's setting, as the test cluster's user is) take ~2 ms on a
 * test's few rows, where TRUNCATE's new files take ~50 ms. A cluster whose user may not set it
 * fails here, and `drop` then drops the database instead of keeping it.
 */
async function emptyDatabase(url: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    const tables = await client.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'`,
    );
    const identities = await client.query<{ name: string; column: string }>(
      `SELECT quote_ident(table_name) AS name, quote_ident(column_name) AS column
         FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'`,
    );
    await client.query(
      [
        'BEGIN',
        'SET LOCAL session_replication_role = replica',
        ...tables.rows.map((t) => `DELETE FROM ${t.name}`),
        ...identities.rows.map((i) => `ALTER TABLE ${i.name} ALTER COLUMN ${i.column} RESTART`),
        'COMMIT',
      ].join(';\n'),
    );
  } finally {
    await client.end();
  }
}

async function onCluster<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
