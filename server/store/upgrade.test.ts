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
    // One kind of UPDATE only adds: a new event kind given to the endpoints that asked for every kind
    // (migration 015). It is allowed when the new list holds every kind of the old one.
    const widening = /UPDATE\s+webhook_endpoints\s+SET\s+events\s*=\s*'(\[[^']*\])'\s+WHERE\s+events\s*=\s*'(\[[^']*\])'\s*;/gi;
    const widens = (to: string, from: string) => (JSON.parse(from) as string[]).every((kind) => (JSON.parse(to) as string[]).includes(kind));
    for (const m of readMigrations().slice(1)) {
      const code = m.sql.replace(/--.*$/gm, '').replace(widening, (statement, to: string, from: string) => (widens(to, from) ? '' : statement));
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

  it('gives PAYMENT_REFUNDED to the endpoints made without events before it existed, and to no other', () => {
    dir = mkdtempSync(join(tmpdir(), 'outing-upgrade-'));
    const db = openDatabase(join(dir, 'outing.db'));
    const all = readMigrations();
    migrate(db, all.filter((m) => m.version < 15));
    db.prepare("INSERT INTO organizations (id, name, email, timezone, created_at, updated_at) VALUES ('org_1', 'Org', 'o@example.com', 'UTC', 1, 1)").run();
    const five = '["BOOKING_CREATED","BOOKING_UPDATED","BOOKING_CANCELED","PAYMENT_SUCCEEDED","PAYMENT_FAILED"]';
    const insert = db.prepare("INSERT INTO webhook_endpoints (id, org_id, url, events, secret, created_at, updated_at) VALUES (?, 'org_1', 'https://x.example', ?, 's', 1, 1)");
    insert.run('whe_all', five);
    insert.run('whe_some', '["PAYMENT_SUCCEEDED"]');
    migrate(db, all);
    const events = (id: string) => JSON.parse((db.prepare('SELECT events FROM webhook_endpoints WHERE id = ?').get(id) as { events: string }).events) as string[];
    expect(events('whe_all')).toEqual([...JSON.parse(five) as string[], 'PAYMENT_REFUNDED']);
    expect(events('whe_some')).toEqual(['PAYMENT_SUCCEEDED']);
    db.close();
  });
});
