import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL for tests. The cluster is the one `postgres-global-setup.ts` started for this run (or
 * the one `OUTING_TEST_DATABASE_URL` names); each test file makes databases of its own on it with
 * `createTestDatabase`, so files running in parallel never see each other's rows.
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
  /** A connection URL to the new, empty database. */
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * A new, empty database `outing_t_<random>` on the test cluster. It is made from template0 with
 * the C collation and ctype, as Outing's PostgreSQL databases must be: text sorts byte by byte, as
 * in SQLite (migrations/postgres/001_initial.sql says why).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const clusterUrl = testDatabaseUrl();
  if (clusterUrl === undefined) throw new Error(`createTestDatabase: ${postgresSkipReason()}`);
  const name = `outing_t_${randomBytes(8).toString('hex')}`;
  await onCluster(clusterUrl, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`),
  );
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

async function onCluster<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
