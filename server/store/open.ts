import { type Store } from './index.js';
import { openStore } from './sqlite/store.js';
import { migrate, openDatabase } from './sqlite/db.js';
import { readMigrations } from './migrations.js';
import { redactDatabaseUrl } from '../redact.js';

export interface DatabaseChoice {
  /** The SQLite file, used when there is no URL. */
  databasePath: string;
  /** `postgres://…`: PostgreSQL instead. */
  databaseUrl?: string | undefined;
  databasePoolSize?: number;
}

/**
 * The store of the configured engine, migrated. PostgreSQL's driver is loaded only when a URL is
 * given, so an SQLite installation never pays for it at start.
 */
export async function openConfiguredStore(choice: DatabaseChoice): Promise<Store> {
  if (choice.databaseUrl === undefined) return openStore(choice.databasePath);
  const { openPostgresStore } = await import('./postgres/index.js');
  return await openPostgresStore(choice.databaseUrl, { poolSize: choice.databasePoolSize });
}

/** Where the data is, for logs, banners and CLI answers: without a password in any of its forms. */
export function databaseLabel(choice: DatabaseChoice): string {
  return choice.databaseUrl === undefined ? choice.databasePath : redactDatabaseUrl(choice.databaseUrl);
}

/** What `outing migrate` reports: the changes applied now, and the schema's version after them. */
export interface MigrationReport {
  engine: 'sqlite' | 'postgres';
  database: string;
  applied: number[];
  version: number;
}

/** Applies the pending migrations of the configured database, and nothing else. */
export async function migrateDatabase(choice: DatabaseChoice): Promise<MigrationReport> {
  const database = databaseLabel(choice);
  if (choice.databaseUrl === undefined) {
    const db = openDatabase(choice.databasePath);
    try {
      const applied = migrate(db);
      return { engine: 'sqlite', database, applied, version: readMigrations().at(-1)?.version ?? 0 };
    } finally {
      db.close();
    }
  }
  const { connectPostgres, migratePostgres, readPostgresMigrations } = await import('./postgres/db.js');
  const db = connectPostgres(choice.databaseUrl, { max: 1 });
  try {
    const applied = await migratePostgres(db);
    return { engine: 'postgres', database, applied, version: readPostgresMigrations().at(-1)?.version ?? 0 };
  } finally {
    await db.pool.end();
  }
}
