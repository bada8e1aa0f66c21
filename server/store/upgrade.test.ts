import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './sqlite/db.js';
import { readMigrations } from './migrations.js';

// docs/OPERATING.md promises that an upgrade never loses data: migrations after the first only add,
// but for a table SQLite must copy to change a constraint, every row and column copied.
describe('upgrades', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has later migrations that only add (no DROP, DELETE, UPDATE, REPLACE or table rebuild but the one way below)', () => {
    const destructive = /\b(DROP\s+(TABLE|COLUMN|INDEX|VIEW|TRIGGER)|DELETE\s+FROM|UPDATE\s+\w+\s+SET|REPLACE\s+INTO|RENAME\s+(TO|COLUMN))\b/i;
    // One kind of UPDATE only adds: a new event kind given to the endpoints that asked for every kind
    // (migration 015). It is allowed when the new list holds every kind of the old one.
    const widening = /UPDATE\s+webhook_endpoints\s+SET\s+events\s*=\s*'(\[[^']*\])'\s+WHERE\s+events\s*=\s*'(\[[^']*\])'\s*;/gi;
    const widens = (to: string, from: string) => (JSON.parse(from) as string[]).every((kind) => (JSON.parse(to) as string[]).includes(kind));
    for (const m of readMigrations().slice(1)) {
      let code = m.sql.replace(/--.*$/gm, '').replace(widening, (statement, to: string, from: string) => (widens(to, from) ? '' : statement));
      // The rebuilds allowed (012 bookings, 014 messages): SQLite's own procedure for a changed CHECK, with foreign keys off
      // and checked before the commit (sqlite/db.ts, migrate). Every row is copied: the test below.
      if (m.sql.startsWith('-- outing: foreign keys off')) code = code.replace(/DROP TABLE (\w+);\s*ALTER TABLE \1_rebuilt RENAME TO \1;/g, '');
      // One more kind of UPDATE only adds: filling a column the same migration adds (018's amount_paid).
      code = code.replace(/UPDATE\s+(\w+)\s+SET\s+(\w+)\s*=[^;]*;/gi, (statement, table: string, column: string) =>
        new RegExp(`ALTER\\s+TABLE\\s+${table}\\s+ADD\\s+COLUMN\\s+${column}\\b`, 'i').test(code) ? '' : statement);
      expect(destructive.exec(code)?.[0], m.name).toBeUndefined();
    }
  });

  it('keeps every booking, with its payments, messages and counters, through the rebuild of migration 012', () => {
    dir = mkdtempSync(join(tmpdir(), 'outing-upgrade-'));
    const db = openDatabase(join(dir, 'outing.db'));
    const all = readMigrations();
    migrate(db, all.filter((m) => m.version < 12));
    const T = Date.UTC(2027, 2, 1, 8);
    db.exec(`INSERT INTO organizations (id, name, email, timezone, created_at, updated_at) VALUES ('org_1', 'Org', 'o@example.com', 'Europe/Lisbon', ${T}, ${T});
      INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, created_at, updated_at)
        VALUES ('exp_1', 'org_1', 'Walk', '', 60, 1000, 10, ${T}, ${T});
      INSERT INTO customers (id, org_id, email, name, created_at, updated_at) VALUES ('cus_1', 'org_1', 'g@example.com', 'G', ${T}, ${T});`);
    for (const [n, status, source] of [[1, 'CONFIRMED', 'API'], [2, 'CANCELLED', 'WIDGET'], [3, 'PENDING', 'WIDGET']] as const) {
      db.prepare(`INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status, guest_name,
        guest_email, guest_phone, participants, unit_price, currency, source, metadata, checked_in_at, tickets, places, total_cents, locale,
        created_at, updated_at) VALUES (?, 'org_1', ?, 'exp_1', 'cus_1', ?, ?, ?, 'G', 'g@example.com', '+351', 2, 1000, 'EUR', ?, '{"a":"b"}',
        NULL, NULL, NULL, NULL, 'pt', ?, ?)`).run(`bk_${n}`, `OUT-0000000${n}`, T + n, T + n + 3_600_000, status, source, T + n, T + n);
    }
    db.exec(`INSERT INTO payments (id, org_id, booking_id, amount, currency, status, provider, created_at) VALUES
        ('pay_1', 'org_1', 'bk_1', 2000, 'EUR', 'SUCCEEDED', 'stripe', ${T}), ('pay_2', 'org_1', 'bk_1', 500, 'EUR', 'SUCCEEDED', 'manual', ${T});
      INSERT INTO messages (id, org_id, booking_id, kind, to_address, status, created_at) VALUES ('msg_1', 'org_1', 'bk_1', 'BOOKING_CONFIRMED', 'g@example.com', 'SENT', ${T});
      INSERT INTO manage_tokens (token_hash, booking_id, created_at) VALUES ('h1', 'bk_3', ${T});`);
    const snapshot = () => ({
      bookings: db.prepare('SELECT rowid, * FROM bookings ORDER BY id').all(),
      payments: db.prepare('SELECT id, booking_id, amount, provider FROM payments ORDER BY id').all(),
      messages: db.prepare('SELECT * FROM messages').all(),
      tokens: db.prepare('SELECT * FROM manage_tokens').all(),
      counts: db.prepare('SELECT * FROM booking_counts ORDER BY status').all(),
    });
    const before = snapshot();
    expect(migrate(db, all.filter((m) => m.version === 12))).toEqual([12]);
    const after = snapshot();
    expect(after.bookings).toEqual((before.bookings as Record<string, unknown>[]).map((b) => ({ ...b, internal_note: null })));
    expect(after.payments).toEqual(before.payments);
    expect(after.messages).toEqual(before.messages);
    expect(after.tokens).toEqual(before.tokens);
    expect(after.counts).toEqual(before.counts);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // The new source is accepted; any other is still refused, and the list counters' triggers still count.
    db.exec(`UPDATE bookings SET source = 'DASHBOARD' WHERE id = 'bk_1'`);
    expect(() => db.exec(`UPDATE bookings SET source = 'FAX' WHERE id = 'bk_1'`)).toThrow(/CHECK/);
    db.exec(`UPDATE bookings SET status = 'CANCELLED' WHERE id = 'bk_3'`);
    expect(db.prepare(`SELECT n FROM booking_counts WHERE status = 'CANCELLED'`).get()).toEqual({ n: 2 });
    // Payments made before say how the provider took them.
    expect(db.prepare('SELECT id, method FROM payments ORDER BY id').all()).toEqual([{ id: 'pay_1', method: null }, { id: 'pay_2', method: null }]);
    db.close();
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

describe('migration 018', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fills each booking’s paid sum from its SUCCEEDED payments, and copies every payment and message', () => {
    dir = mkdtempSync(join(tmpdir(), 'outing-upgrade-'));
    const db = openDatabase(join(dir, 'outing.db'));
    const all = readMigrations();
    migrate(db, all.filter((m) => m.version < 18));
    db.exec(`INSERT INTO organizations (id, name, email, timezone, currency, created_at, updated_at) VALUES ('org_1', 'O', 'o@example.com', 'UTC', 'EUR', 1, 1);
      INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, created_at, updated_at) VALUES ('exp_1', 'org_1', 'E', '', 60, 100, 10, 1, 1);
      INSERT INTO customers (id, org_id, name, email, created_at, updated_at) VALUES ('cus_1', 'org_1', 'C', 'c@example.com', 1, 1);`);
    for (const n of [1, 2]) {
      db.prepare(`INSERT INTO bookings (id, org_id, booking_number, experience_id, customer_id, slot_start, slot_end, status, guest_name, guest_email,
        participants, unit_price, currency, source, created_at, updated_at)
        VALUES (?, 'org_1', ?, 'exp_1', 'cus_1', 10, 20, 'CONFIRMED', 'G', 'g@example.com', 1, 9000, 'EUR', 'API', 1, 1)`).run(`bk_${n}`, `BK-${n}`);
    }
    db.exec(`INSERT INTO payments (id, org_id, booking_id, amount, currency, status, provider, method, created_at) VALUES
      ('pay_1', 'org_1', 'bk_1', 2000, 'EUR', 'SUCCEEDED', 'manual', 'CASH', 1), ('pay_2', 'org_1', 'bk_1', 500, 'EUR', 'SUCCEEDED', 'stripe', NULL, 2),
      ('pay_3', 'org_1', 'bk_1', 700, 'EUR', 'FAILED', 'stripe', NULL, 3);
      INSERT INTO messages (id, org_id, booking_id, kind, to_address, status, created_at) VALUES ('msg_1', 'org_1', 'bk_1', 'BOOKING_CONFIRMED', 'g@example.com', 'SENT', 1);`);
    const payments = db.prepare('SELECT * FROM payments ORDER BY id').all();
    const messages = db.prepare('SELECT * FROM messages').all() as Record<string, unknown>[];
    expect(migrate(db, all.filter((m) => m.version === 18))).toEqual([18]);
    expect(db.prepare('SELECT id, amount_paid FROM bookings ORDER BY id').all()).toEqual([{ id: 'bk_1', amount_paid: 2500 }, { id: 'bk_2', amount_paid: 0 }]);
    expect(db.prepare('SELECT * FROM payments ORDER BY id').all()).toEqual(payments);
    expect(db.prepare('SELECT * FROM messages').all()).toEqual(messages.map((m) => ({ ...m, gift_voucher_id: null })));
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});
