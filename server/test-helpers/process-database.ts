import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { type Store } from '../store/index.js';
import { openStore } from '../store/sqlite/store.js';
import { openPostgresStore } from '../store/postgres/index.js';
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

/**
 * `processDatabase` for a whole test file: each call a new database, all given back once the
 * file's tests are done (call it at the file's top level; stop the servers in the tests).
 */
export function fileDatabases(): () => Promise<ProcessDatabase> {
  const taken: ProcessDatabase[] = [];
  afterAll(async () => {
    await Promise.all(taken.splice(0).map((db) => db.drop()));
  });
  return async () => {
    const db = await processDatabase();
    taken.push(db);
    return db;
  };
}

/** The store over a `processDatabase` (or what it named), opened by the test itself: close it after. */
export async function openStoreOn(db: Pick<ProcessDatabase, 'path' | 'url'>): Promise<Store> {
  return db.url !== undefined ? await openPostgresStore(db.url, { poolSize: 2 }) : openStore(db.path ?? '');
}

/** A fresh, empty store of the engine under test, and how to close it and throw its database away. */
export async function openTestStore(): Promise<{ store: Store; close(): Promise<void> }> {
  const db = await processDatabase();
  const store = await openStoreOn(db);
  return {
    store,
    async close() {
      await store.close();
      await db.drop();
      if (db.path !== undefined) rmSync(dirname(db.path), { recursive: true, force: true });
    },
  };
}

/**
 * Two stores over one fresh database, as the server and the CLI (or two processes) are: what one
 * writes, the other must see. Close both and throw the database away with `close`.
 */
export async function openTwoStores(): Promise<{ store: Store; other: Store; close(): Promise<void> }> {
  const db = await processDatabase();
  const store = await openStoreOn(db);
  const other = await openStoreOn(db);
  return {
    store,
    other,
    async close() {
      await store.close();
      await other.close();
      await db.drop();
      if (db.path !== undefined) rmSync(dirname(db.path), { recursive: true, force: true });
    },
  };
}
