import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './sqlite/db.js';
import { readMigrations } from './migrations.js';

// docs/OPERATING.md promises that an upgrade never loses data: migrations after the first only add.
describe('upgrades', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has later migrations that only add (no DROP, DELETE, UPDATE, REPLACE or table rebuild)', () => {
    const destructive = /\b(DROP\s+(TABLE|COLUMN|INDEX|VIEW|TRIGGER)|DELETE\s+FROM|UPDATE\s+\w+\s+SET|REPLACE\s+INTO|RENAME\s+(TO|COLUMN))\b/i;
    for (const m of readMigrations().slice(1)) {
      const code = m.sql.replace(/--.*$/gm, '');
      expect(destructive.exec(code)?.[0], m.name).toBeUndefined();
    }
  });

  it('keeps every row of a database made before the later migrations', () => {
    dir = mkdtempSync(join(tmpdir(), 'outing-upgrade-'));
    const db = openDatabase(join(dir, 'outing.db'));
    const [first, ...later] = readMigrations();
    migrate(db, [first!]);
    // A row in each table that has no foreign keys, filled with placeholder values.
    const tables = (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'").all() as {
        name: string;
      }[]
    ).map((t) => t.name);
    for (const table of tables) {
      if ((db.prepare(`SELECT COUNT(*) AS n FROM pragma_foreign_key_list('${table}')`).get() as { n: number }).n > 0) continue;
      const columns = db.prepare(`SELECT name, type, "notnull" AS required, dflt_value AS fallback FROM pragma_table_info('${table}')`).all() as {
        name: string;
        type: string;
        required: number;
        fallback: string | null;
      }[];
      const filled = columns.filter((c) => c.required && c.fallback === null);
      if (!filled.length) continue;
      const values = filled.map((c) => (/INT/i.test(c.type) ? 1 : `${table}-${c.name}`));
      try {
        db.prepare(`INSERT INTO ${table} (${filled.map((c) => `"${c.name}"`).join(', ')}) VALUES (${filled.map(() => '?').join(', ')})`).run(...values);
      } catch {
        // a CHECK constraint wants a real value: this table stays empty, the others still count
      }
    }
    const count = () => Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]));
    const before = count();
    expect(Object.values(before).some((n) => n > 0)).toBe(true);
    expect(migrate(db, [first!, ...later])).toEqual(later.map((m) => m.version));
    const after = count();
    for (const table of tables) expect(after[table], table).toBe(before[table]);
    db.close();
  });
});
