import { join } from 'node:path';
import { testEngine } from './app.js';
import { tempDir } from './cli.js';
import { leaseMigratedDatabase } from './postgres.js';

/**
 * A database of the engine under test for real `outing` processes (`runCli`, `startTestServer`):
 * a SQLite file in a fresh temp folder, or, in the PostgreSQL runs (`OUTING_TEST_ENGINE=postgres`),
 * a migrated database of the test cluster no other test is using.
 *
 * ```ts
 * const db = await processDatabase();
 * await runCli(['init', ...initArgs, ...db.args]);
 * const server = await startTestServer({ ...db.server, env: { ... } });
 * // …
 * await server.stop();
 * await db.drop();
 * ```
 */
export interface ProcessDatabase {
  engine: 'sqlite' | 'postgres';
  /** The command-line flag naming it: `['--db', file]` or `['--database-url', url]`. */
  args: string[];
  /** The same as `startTestServer` options: `{ dbPath }` or `{ databaseUrl }`. */
  server: { dbPath: string } | { databaseUrl: string };
  /** The same as environment variables: `DATABASE_PATH` or `DATABASE_URL`. */
  env: Record<string, string>;
  /** The SQLite file, on SQLite. */
  path?: string;
  /** The connection URL, on PostgreSQL. */
  url?: string;
  /** Gives the database back (on PostgreSQL, ending every connection still open to it). Stop the processes first. */
  drop(): Promise<void>;
}

export async function processDatabase(): Promise<ProcessDatabase> {
  if (testEngine() === 'sqlite') {
    const path = join(tempDir('outing-db-'), 'outing.db');
    return { engine: 'sqlite', args: ['--db', path], server: { dbPath: path }, env: { DATABASE_PATH: path }, path, drop: async () => {} };
  }
  const database = await leaseMigratedDatabase();
  return {
    engine: 'postgres',
    args: ['--database-url', database.url],
    server: { databaseUrl: database.url },
    env: { DATABASE_URL: database.url },
    url: database.url,
    drop: () => database.drop(),
  };
}
