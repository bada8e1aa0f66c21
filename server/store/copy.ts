import { existsSync } from 'node:fs';
import { connect, readSchema, type Db } from './sqlite/db.js';
import { readMigrations } from './migrations.js';
import { connectPostgres, migratePostgres, readPostgresMigrations, type PgDb } from './postgres/db.js';
import { tryServerLock, type ServerLock } from './sqlite/server-lock.js';

/**
 * `outing copy`: a whole SQLite installation into an empty PostgreSQL database. The two schemas
 * have the same tables and columns (migrations-parity.test.ts holds them equal), so every row goes
 * over as it is, column for column: TEXT as TEXT, INTEGER as INTEGER/BIGINT, BLOB (key and token
 * hashes) as BYTEA.
 */

/** A reason to refuse the copy that the operator can fix: one line, for the CLI to print. */
export class CopyError extends Error {}

export interface CopyResult {
  /** Tables copied (schema_migrations, which each engine keeps for itself, is not one of them). */
  tables: number;
  /** Rows copied, over every table. */
  rows: number;
  /** Rows per table, in the order they were copied. */
  perTable: { table: string; rows: number }[];
}

export interface CopyOptions {
  /** Called now and then during a large table (rows done, rows in the table). */
  onProgress?: (table: string, done: number, total: number) => void;
}

/** PostgreSQL takes at most 65,535 parameters per statement; a batch stays under that and this many rows. */
const MAX_PARAMETERS = 65_535;
const MAX_BATCH_ROWS = 2_000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables to copy, parents before children, from the SQLite schema's own foreign keys. */
function tablesInForeignKeyOrder(sqlite: Db): string[] {
  const names = (
    sqlite
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations' ORDER BY name`)
      .all() as { name: string }[]
  ).map((r) => r.name);
  const parents = new Map<string, Set<string>>();
  const references = sqlite.prepare('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)');
  for (const name of names) {
    const set = new Set((references.all(name) as { parent: string }[]).map((r) => r.parent).filter((p) => p !== name));
    parents.set(name, set);
  }
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new CopyError(`The SQLite schema's foreign keys form a cycle: ${[...path, name].join(' → ')}`);
    state.set(name, 'visiting');
    for (const parent of [...(parents.get(name) ?? [])].sort()) {
      if (!parents.has(parent)) throw new CopyError(`Table ${name} refers to ${parent}, which the SQLite database does not have`);
      visit(parent, [...path, name]);
    }
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of names) visit(name, []);
  return order;
}

/** The columns of a SQLite table, in order, and the ones of its primary key (in key order). */
function columnsOf(sqlite: Db, table: string): { columns: string[]; key: string[] } {
  const info = sqlite.prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(table) as { name: string; pk: number }[];
  return {
    columns: info.map((c) => c.name),
    key: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
  };
}

function openSqlite(path: string): Db {
  if (!existsSync(path)) throw new CopyError(`No SQLite database at ${path}`);
  let sqlite: Db;
  try {
    sqlite = connect(path, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
    readSchema(sqlite);
  } catch (err) {
    throw new CopyError(`${path} is not a SQLite database Outing can read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return sqlite;
}

/** Refuses a SQLite database whose schema is not the latest: its rows would not fit the PostgreSQL tables. */
function checkSqliteVersion(sqlite: Db, path: string): void {
  const latest = readMigrations().at(-1)?.version ?? 0;
  const hasTable = sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).get();
  if (!hasTable) throw new CopyError(`${path} is not an Outing database (it has no schema_migrations table)`);
  const version = (sqlite.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  if (version < latest) {
    throw new CopyError(`The SQLite database is at schema version ${version}, not ${latest}: run outing migrate --db ${path} first`);
  }
  if (version > latest) {
    throw new CopyError(`The SQLite database is at schema version ${version}, newer than this Outing's ${latest}: copy it with the Outing that wrote it`);
  }
}

/** The PostgreSQL tables of the schema in use, with their columns. */
async function postgresTables(pg: PgDb): Promise<Map<string, Set<string>>> {
  const rows = await pg.all<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
  );
  const tables = new Map<string, Set<string>>();
  for (const r of rows) {
    let set = tables.get(r.table_name);
    if (!set) tables.set(r.table_name, (set = new Set()));
    set.add(r.column_name);
  }
  return tables;
}

/** better-sqlite3's values as node-postgres parameters: 64-bit integers as their decimal text. */
const parameter = (value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * Copies every table of the SQLite database at `path` into the PostgreSQL database at `url`, which
 * is migrated first and must hold no row (schema_migrations aside). One PostgreSQL transaction:
 * either everything is copied or nothing is. The SQLite file is only read, in one read transaction,
 * so the copy is a consistent snapshot even if something were still writing.
 */
export async function copySqliteToPostgres(path: string, url: string, options: CopyOptions = {}): Promise<CopyResult> {
  const sqlite = openSqlite(path);
  // A server still running on the file would go on taking bookings the copy never sees. Its lock
  // (server-lock.ts) says so; held by the copy, it also keeps `outing restore` off the file. A
  // folder where the lock file cannot be made (a read-only mount of a backup) has no server either.
  let lock: ServerLock | undefined;
  try {
    lock = tryServerLock(path);
    if (!lock) {
      sqlite.close();
      throw new CopyError(`A running Outing server holds ${path}: stop it, then copy`);
    }
  } catch (err) {
    if (err instanceof CopyError) throw err;
  }
  try {
    checkSqliteVersion(sqlite, path);
    const order = tablesInForeignKeyOrder(sqlite);
    const pg = connectPostgres(url, { max: 1 });
    try {
      try {
        await migratePostgres(pg);
      } catch (err) {
        throw new CopyError(`Could not prepare the PostgreSQL database: ${err instanceof Error ? err.message : String(err)}`);
      }
      const pgVersion = (await pg.get<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations'))?.v ?? 0;
      const latest = readPostgresMigrations().at(-1)?.version ?? 0;
      if (pgVersion > latest) throw new CopyError(`The target database is at schema version ${pgVersion}, newer than this Outing's ${latest}`);
      const targetTables = await postgresTables(pg);
      const shapes = new Map(order.map((table) => [table, columnsOf(sqlite, table)]));
      for (const [table, { columns }] of shapes) {
        const target = targetTables.get(table);
        if (!target) throw new CopyError(`The target database has no table ${table}`);
        const missing = columns.filter((c) => !target.has(c));
        if (missing.length) throw new CopyError(`The target table ${table} has no column ${missing.join(', ')}`);
      }

      return await pg.transaction(async () => {
        // Empty means every table: the ones copied first (in the order of the copy), then any other.
        const toCheck = [...order, ...[...targetTables.keys()].sort().filter((t) => !shapes.has(t) && t !== 'schema_migrations')];
        for (const table of toCheck) {
          if (await pg.get(`SELECT 1 FROM ${quote(table)} LIMIT 1`)) throw new CopyError(`The target database is not empty: table ${table} has rows`);
        }

        // Counter tables (booking_counts, customer_counts) are kept by triggers on their parents.
        // Letting them count the copied rows would not always give SQLite's values (a counter that
        // went back to 0 keeps its row in SQLite; recounting would not make it), so the triggers are
        // off during the copy and the counters are copied like any table. ALTER TABLE is
        // transactional: they are back on when this commits, and never off for anyone else.
        const triggered = (
          await pg.all<{ table: string }>(
            `SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
              WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 1`,
          )
        ).map((r) => r.table);
        for (const table of triggered) await pg.run(`ALTER TABLE ${quote(table)} DISABLE TRIGGER USER`);

        sqlite.exec('BEGIN'); // one snapshot of the whole file
        const perTable: { table: string; rows: number }[] = [];
        let rows = 0;
        try {
          for (const table of order) {
            const { columns, key } = shapes.get(table)!;
            const total = (sqlite.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n;
            const orderBy = (key.length ? key : ['rowid']).map(quote).join(', ');
            const select = sqlite.prepare(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)} ORDER BY ${orderBy}`);
            select.raw(true);
            select.safeIntegers(true);
            const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
            const head = `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES `;
            let batch: unknown[][] = [];
            let done = 0;
            const flush = async () => {
              if (!batch.length) return;
              const values = batch
                .map((_, i) => `(${columns.map((__, j) => `$${i * columns.length + j + 1}`).join(', ')})`)
                .join(', ');
              done += await pg.run(head + values, batch.flat().map(parameter));
              batch = [];
              options.onProgress?.(table, done, total);
            };
            for (const row of select.iterate() as IterableIterator<unknown[]>) {
              batch.push(row);
              if (batch.length === batchRows) await flush();
            }
            await flush();
            if (done !== total) throw new Error(`Copied ${done} rows of ${table}, expected ${total}`);
            perTable.push({ table, rows: done });
            rows += done;
          }
        } finally {
          sqlite.exec('COMMIT');
        }

        for (const table of triggered) await pg.run(`ALTER TABLE ${quote(table)} ENABLE TRIGGER USER`);

        // Identity columns (events.seq, activity.seq) were given SQLite's values: new rows continue after them.
        const identities = await pg.all<{ table: string; column: string }>(
          `SELECT table_name AS table, column_name AS column FROM information_schema.columns
            WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY 1, 2`,
        );
        for (const { table, column } of identities) {
          // setval is strict: on an empty table (max is NULL) the sequence is left where it starts.
          await pg.get(`SELECT setval(pg_get_serial_sequence($1, $2), (SELECT max(${quote(column)}) FROM ${quote(table)}))`, [
            quote(table),
            column,
          ]);
        }
        return { tables: perTable.length, rows, perTable };
      });
    } finally {
      await pg.pool.end();
    }
  } finally {
    sqlite.close();
    lock?.release();
  }
}
