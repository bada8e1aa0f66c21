import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate, openDatabase, type Db } from './sqlite/db.js';
import { readMigrations } from './migrations.js';
import { type Store } from './index.js';
import { openStore } from './sqlite/store.js';
import { addOrganization } from '../test-helpers/index.js';

const dirs: string[] = [];
const opened: { close(): void }[] = [];
function tempPath(name = 'outing.db'): string {
  const dir = mkdtempSync(join(tmpdir(), 'outing-store-'));
  dirs.push(dir);
  return join(dir, name);
}
function open(path = tempPath()): Db {
  const db = openDatabase(path);
  opened.push(db);
  return db;
}
function store(path = tempPath()): Store {
  const s = openStore(path);
  opened.push(s);
  return s;
}
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('uses WAL, synchronous=FULL, foreign keys and a busy timeout', () => {
    const db = open();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
  });

  it('creates the database’s folder', () => {
    const path = join(tempPath(), '..', 'nested', 'deeper', 'outing.db');
    open(path);
    expect(existsSync(path)).toBe(true);
  });
});

describe('migrate', () => {
  it('applies the numbered migrations in order, once, and records them', () => {
    const db = open();
    const all = readMigrations();
    expect(all.length).toBeGreaterThan(0);
    expect(all.map((m) => m.version)).toEqual([...all.map((m) => m.version)].sort((a, b) => a - b));
    expect(all[0]?.name).toMatch(/^001_.+\.sql$/);
    expect(migrate(db)).toEqual(all.map((m) => m.version));
    expect(migrate(db)).toEqual([]);
    const recorded = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    expect(recorded).toEqual(all.map((m) => ({ version: m.version, name: m.name })));
  });

  it('creates every table the contract needs', () => {
    const db = open();
    migrate(db);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    for (const table of [
      'organizations', 'api_keys', 'experiences', 'customers', 'bookings', 'slot_counts', 'events', 'webhook_endpoints',
      'webhook_deliveries', 'idempotency_keys', 'calendar_feeds', 'calendar_imports', 'busy_intervals', 'payments', 'settings',
    ]) {
      expect(tables).toContain(table);
    }
  });

  it('applies a later migration on an existing database and leaves a failed one unrecorded', () => {
    const db = open();
    migrate(db);
    const base = readMigrations();
    const next = Math.max(...base.map((m) => m.version)) + 1;
    expect(migrate(db, [...base, { version: next, name: `${next}_notes.sql`, sql: 'CREATE TABLE notes (id TEXT);' }])).toEqual([next]);
    const broken = { version: next + 1, name: `${next + 1}_broken.sql`, sql: 'CREATE TABLE half (id TEXT); THIS IS NOT SQL;' };
    expect(() => migrate(db, [broken])).toThrow();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    expect(db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(next + 1)).toBeUndefined();
  });
});

describe('store', () => {
  it('enforces foreign keys', async () => {
    const s = store();
    await expect(s.apiKeys.insertApiKey({ id: 'key_x', orgId: 'org_missing', name: 'x', type: 'secret', scopes: '["*"]', prefix: 'osk_', keyHash: Buffer.alloc(32), keyValue: null, createdAt: 0, lastUsedAt: null, revokedAt: null })).rejects.toThrow(/FOREIGN KEY/);
  });

  it('rolls a transaction back when its work throws, and nests as savepoints', async () => {
    const s = store();
    await expect(s.transaction(async () => {
        await s.settings.setSetting('a', '1');
        throw new Error('undo');
      })).rejects.toThrow('undo');
    expect(await s.settings.getSetting('a')).toBeUndefined();
    await s.transaction(async () => {
      await s.settings.setSetting('outer', '1');
      await expect(s.transaction(async () => {
          await s.settings.setSetting('inner', '1');
          throw new Error('inner only');
        })).rejects.toThrow('inner only');
    });
    expect(await s.settings.getSetting('outer')).toBe('1');
    expect(await s.settings.getSetting('inner')).toBeUndefined();
  });

  it('keeps settings by key, replacing the value', async () => {
    const s = store();
    await s.settings.setSetting('k', 'v1');
    await s.settings.setSetting('k', 'v2');
    expect(await s.settings.getSetting('k')).toBe('v2');
  });

  it('makes an online backup that opens as a consistent copy', async () => {
    const path = tempPath();
    const s = store(path);
    const org = await addOrganization(s);
    const target = join(tempPath(), '..', 'copy.db');
    await s.backupTo(target);
    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT id FROM organizations').all()).toEqual([{ id: org.orgId }]);
    } finally {
      copy.close();
    }
  });

  it('lets a second connection (the CLI) read and write while the first is open', async () => {
    const path = tempPath();
    const first = store(path);
    const org = await addOrganization(first);
    const second = store(path);
    expect((await second.organizations.getOrganization(org.orgId))?.id).toBe(org.orgId);
    await second.apiKeys.revokeApiKey(org.apiKeyId, 1);
    expect((await first.apiKeys.getApiKey(org.apiKeyId))?.revokedAt).toBe(1);
  });

  it('closes idempotently', async () => {
    const s = openStore(tempPath());
    await s.close();
    await expect(s.close()).resolves.toBeUndefined();
  });
});
