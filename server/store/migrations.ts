import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The numbered schema changes of both engines: `migrations/NNN_name.sql` for SQLite and
// `migrations/postgres/NNN_name.sql` for PostgreSQL (same numbers and names; a test holds them equal).

let migrationsFolder: string | undefined;

/**
 * The bundled server (dist/server/bundle/) is not beside the migrations folder: it names the one
 * the build copied (dist/server/store/migrations).
 */
export function useMigrationsFolder(dir: string): void {
  migrationsFolder = dir;
}

/** The numbered `.sql` migrations sit beside this file (the build copies them into dist). */
export function migrationsDir(): string {
  return migrationsFolder ?? join(dirname(fileURLToPath(import.meta.url)), 'migrations');
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

let packagedMigrations: Migration[] | undefined;

/** A single executable has no migrations folder: it hands over the ones it carries as assets. */
export function useMigrations(migrations: Migration[]): void {
  packagedMigrations = [...migrations].sort((a, b) => a.version - b.version);
}

export function readMigrations(dir?: string): Migration[] {
  if (dir === undefined && packagedMigrations) return packagedMigrations;
  const folder = dir ?? migrationsDir();
  return readdirSync(folder)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .map((f) => ({ version: Number(f.split('_')[0]), name: f, sql: readFileSync(join(folder, f), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}


/** The versions `schema_migrations` records as applied (the same table on both engines). */
export const APPLIED_VERSIONS = 'SELECT version FROM schema_migrations';
/** Records a migration as applied: its version, file name and epoch milliseconds (`?` placeholders). */
export const RECORD_MIGRATION = 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)';
