import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { APPLIED_VERSIONS, readMigrations, RECORD_MIGRATION, type Migration } from '../migrations.js';
import { createPrivateFile, makePrivateFolder, makePrivateIfPresent } from '../private-files.js';

export type Db = Database.Database;

let nativeBinding: object | undefined;

/**
 * A single executable cannot let better-sqlite3 find its addon on disk (its `require` loads
 * built-ins only): it loads the addon itself and hands the exports over here.
 */
export function useNativeBinding(binding: object): void {
  nativeBinding = binding;
}

/** A better-sqlite3 connection, with the addon handed over by `useNativeBinding` when there is one. */
export function connect(path: string, options: Database.Options = {}): Db {
  // The typings only know the string form; better-sqlite3 also takes the addon object (its #972).
  return new Database(path, nativeBinding ? { ...options, nativeBinding: nativeBinding as unknown as string } : options);
}

/**
 * Opens the database with the settings the product relies on: WAL so readers never wait for the
 * writer, synchronous=FULL so a committed booking survives power loss, foreign keys on, and a busy
 * timeout so the CLI and the server can share the file.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  // A new database is 0600 in a 0700 folder before SQLite writes a byte; SQLite gives its -wal and
  // -shm the database's mode (made private below too, in case a umask or an older SQLite did not).
  let created = false;
  if (path !== ':memory:' && !options.readonly) {
    makePrivateFolder(dirname(path));
    created = createPrivateFile(path);
  }
  const db = connect(path, { readonly: options.readonly ?? false });
  db.pragma('busy_timeout = 5000');
  // 8 MB of page cache per connection instead of better-sqlite3's 16 MB: the pages a booking writes
  // stay hot, the rest come from the OS's cache. Peak RSS under the booking benchmark 146–148 MB
  // instead of 150–159 (docs/PERFORMANCE.md, "Memory").
  db.pragma('cache_size = -8000');
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // Checkpoint every ~40 MB of WAL instead of ~4 MB: each checkpoint writes the pages a burst of
    // bookings dirtied a second time, and fewer, larger ones rewrite a hot page once, not ten times.
    db.pragma('wal_autocheckpoint = 10000');
  }
  db.pragma('foreign_keys = ON');
  if (created) for (const suffix of ['-wal', '-shm']) makePrivateIfPresent(`${path}${suffix}`);
  return db;
}

/**
 * Reads the schema: proves the file is a database SQLite can read, and inside a deferred
 * transaction (BEGIN) takes its read snapshot.
 */
export function readSchema(db: Db): void {
  db.prepare('SELECT count(*) FROM sqlite_schema').get();
}

/** Applies, in order and each in its own transaction, the migrations not yet recorded. */
export function migrate(db: Db, migrations: Migration[] = readMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const applied = new Set(
    (db.prepare(APPLIED_VERSIONS).all() as { version: number }[]).map((r) => r.version),
  );
  const record = db.prepare(RECORD_MIGRATION);
  const done: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    // A migration that rebuilds a table others refer to runs with foreign keys off (a PRAGMA that
    // works outside a transaction only), and commits only if every reference still holds.
    const keysOff = m.sql.startsWith(FOREIGN_KEYS_OFF);
    if (keysOff) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        if (keysOff && (db.pragma('foreign_key_check') as unknown[]).length > 0) throw new Error(`${m.name} broke a foreign key`);
        record.run(m.version, m.name, Date.now());
      }).immediate();
    } finally {
      if (keysOff) db.pragma('foreign_keys = ON');
    }
    done.push(m.version);
  }
  return done;
}

/** The first line of a SQLite migration that must run with foreign keys off (see migrate). */
const FOREIGN_KEYS_OFF = '-- outing: foreign keys off';
