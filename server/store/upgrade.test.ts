import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './sqlite/db.js';
import { readMigrations } from './migrations.js';

// docs/OPERATING.md promises that an upgrade never loses data: migrations after the first only add,
// but for a table SQLite must copy to change a constraint, every row and column copied.
const COPIES: Record<string, string> = { '014_org_notices_branding.sql': 'messages' };
describe('upgrades', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has later migrations that only add (no DROP, DELETE, UPDATE, REPLACE or table rebuild)', () => {
    const destructive = /\b(DROP\s+(TABLE|COLUMN|INDEX|VIEW|TRIGGER)|DELETE\s+FROM|UPDATE\s+\w+\s+SET|REPLACE\s+INTO|RENAME\s+(TO|COLUMN))\b/i;
    for (const m of readMigrations().slice(1)) {
      let code = m.sql.replace(/--.*$/gm, '');
      // The one copy SQLite needs to change a column's constraints (014: the outbox's new kinds and
      // its optional booking), proven lossless by the test below; nothing else may drop or rename.
      const copy = COPIES[m.name];
      if (copy) code = code.replace(`DROP TABLE ${copy};`, '').replace(`ALTER TABLE ${copy}_014 RENAME TO ${copy};`, '');
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

  it('copies every message, every column, when 014 rebuilds the outbox', () => {
    dir = mkdtempSync(join(tmpdir(), 'outing-upgrade-'));
    const db = openDatabase(join(dir, 'outing.db'));
    const all = readMigrations();
    migrate(db, all.filter((m) => m.version < 14));
    db.prepare(`INSERT INTO organizations (id, name, email, timezone, currency, created_at, updated_at) VALUES ('org_1', 'O', 'o@example.com', 'UTC', 'EUR', 1, 1)`).run();
    db.prepare(`INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, created_at, updated_at)
      VALUES ('exp_1', 'org_1', 'E', '', 60, 100, 10, 1, 1)`).run();
    db.prepare(`INSERT INTO customers (id, org_id, name, email, created_at, updated_at) VALUES ('cus_1', 'org_1', 'C', 'c@example.com', 1, 1)`).run();
    db.prepare(`INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status, guest_name, guest_email,
      participants, unit_price, currency, source, created_at, updated_at)
      VALUES ('bk_1', 'org_1', 'BK-1', 'exp_1', 'cus_1', 10, 20, 'CONFIRMED', 'G', 'g@example.com', 1, 100, 'EUR', 'API', 1, 1)`).run();
    const insert = db.prepare(`INSERT INTO messages (id, org_id, booking_id, kind, to_address, status, attempts, last_error, next_attempt_at,
      leased_until, reminder_for, resend_of, sent_at, created_at) VALUES (?, 'org_1', 'bk_1', ?, 'g@example.com', ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insert.run('msg_1', 'BOOKING_CONFIRMED', 'SENT', 1, null, null, null, null, null, 5, 4);
    insert.run('msg_2', 'BOOKING_REMINDER', 'PENDING', 2, '451 later', 9, 8, 10, 'msg_0', null, 6);
    const read = () => db.prepare(`SELECT id, org_id, booking_id, kind, to_address, status, attempts, last_error, next_attempt_at, leased_until,
      reminder_for, resend_of, sent_at, created_at FROM messages ORDER BY id`).all();
    const before = read();
    expect(migrate(db, all)).toContain(14);
    expect(read()).toEqual(before);
    // The copy keeps its indexes: one reminder per booking and start.
    insert.run('msg_3', 'BOOKING_REMINDER', 'PENDING', 0, null, 9, null, 11, null, null, 7);
    expect(() => insert.run('msg_4', 'BOOKING_REMINDER', 'PENDING', 0, null, 9, null, 11, null, null, 7)).toThrow(/UNIQUE/);
    db.close();
  });
});
