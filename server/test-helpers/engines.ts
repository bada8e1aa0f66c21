import { join } from 'node:path';
import { openDatabase, migrate, type Db } from '../store/db.js';
import { createStore, type Store } from '../store/index.js';
import { connectPostgres, type PgDb } from '../store/postgres/db.js';
import { tempDir } from './cli.js';
import { createTestDatabase } from './postgres.js';

/**
 * The same schema on both engines, for tests that hold a PostgreSQL store module to its SQLite
 * twin: `sqlite` is the whole SQLite store over a temp file (and `sqliteDb` its connection, for
 * rows a test plants directly); `pgDb` a fresh, migrated database of the test cluster. Skip such
 * tests with `it.skipIf(!testDatabaseUrl())`.
 */
export interface BothEngines {
  sqlite: Store;
  sqliteDb: Db;
  pgDb: PgDb;
  close(): Promise<void>;
}

export async function bothEngines(): Promise<BothEngines> {
  const sqliteDb = openDatabase(join(tempDir(), 'twin.db'));
  migrate(sqliteDb);
  const sqlite = createStore(sqliteDb);
  const database = await createTestDatabase({ migrated: true });
  const pgDb = connectPostgres(database.url, { max: 4 });
  return {
    sqlite,
    sqliteDb,
    pgDb,
    async close() {
      await sqlite.close();
      await pgDb.pool.end();
      await database.drop();
    },
  };
}
