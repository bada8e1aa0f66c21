import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { readFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createTestApp, expectData, expectError, expectList, manualClock, tampered, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { generateApiKey } from '../domain/api-keys.js';
import { Experience, Organization } from '../../shared/index.js';

/** Every row of every table of the test app's database, as text; and whether an API key has this hash. */
async function tablesAsText(t: TestApp): Promise<{ dump: string; hasHash(hash: Buffer): Promise<boolean> }> {
  if (t.config.databaseUrl === undefined) {
    const db = new Database(t.dbPath, { readonly: true });
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
      const dump = tables.map((name) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).raw().all())).join('\n');
      const hashes = (db.prepare('SELECT key_hash AS h FROM api_keys').all() as { h: Buffer }[]).map((r) => r.h);
      return { dump, hasHash: async (hash) => hashes.some((h) => h.equals(hash)) };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: t.config.databaseUrl });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")).rows;
    const dumps: string[] = [];
    for (const { name } of tables) dumps.push(JSON.stringify((await client.query({ text: `SELECT * FROM "${name}"`, rowMode: 'array' })).rows));
    const hashes = (await client.query<{ h: Buffer }>('SELECT key_hash AS h FROM api_keys')).rows.map((r) => r.h);
    return { dump: dumps.join('\n'), hasHash: async (hash) => hashes.some((h) => h.equals(hash)) };
  } finally {
    await client.end();
  }
}

const KEY_FORMAT = /^(osk|opk)_[0-9A-Za-z]{43}[0-9A-Za-z]{6}$/;

describe('authentication with secret keys on /v1', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock();
    t = await createTestApp({ now: clock.now });
  });
  afterEach(() => t.close());

  it('issues keys as a prefix, 43 base62 characters and a 6-character checksum', () => {
    expect(t.secretKey).toMatch(KEY_FORMAT);
    expect(t.secretKey.startsWith('osk_')).toBe(true);
    expect(t.publishableKey).toMatch(KEY_FORMAT);
    expect(t.publishableKey.startsWith('opk_')).toBe(true);
  });

  it('lets a valid secret key in', async () => {
    expectData(await t.request('GET', '/v1/organization'), Organization);
  });

  it('answers a request without Authorization with 401 UNAUTHORIZED', async () => {
    const err = expectError(await t.request('GET', '/v1/organization', { key: null }), 401, 'UNAUTHORIZED');
    expect(err.message).toMatch(/Bearer/);
  });

  it('answers another scheme than Bearer with 401 UNAUTHORIZED', async () => {
    const res = await t.request('GET', '/v1/organization', { key: null, headers: { authorization: `Basic ${t.secretKey}` } });
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('accepts the Bearer scheme in any letter case', async () => {
    const res = await t.request('GET', '/v1/organization', { key: null, headers: { authorization: `bearer ${t.secretKey}` } });
    expectData(res, Organization);
  });

  it('refuses an unknown, well-formed key with 401 INVALID_API_KEY', async () => {
    expectError(await t.request('GET', '/v1/organization', { key: generateApiKey('secret') }), 401, 'INVALID_API_KEY');
  });

  it('refuses a malformed key with 401 INVALID_API_KEY', async () => {
    for (const key of ['osk_short', 'nonsense', `${t.secretKey}x`, t.secretKey.slice(0, -1), `sk_${t.secretKey.slice(4)}`]) {
      expectError(await t.request('GET', '/v1/organization', { key }), 401, 'INVALID_API_KEY');
    }
  });

  it('refuses a key whose checksum does not match (a typo) with 401 INVALID_API_KEY', async () => {
    expectError(await t.request('GET', '/v1/organization', { key: tampered(t.secretKey) }), 401, 'INVALID_API_KEY');
    const inner = t.secretKey.slice(0, 10) + (t.secretKey[10] === 'z' ? 'y' : 'z') + t.secretKey.slice(11);
    expectError(await t.request('GET', '/v1/organization', { key: inner }), 401, 'INVALID_API_KEY');
  });

  it('refuses a publishable key on /v1 with 401 INVALID_API_KEY', async () => {
    const err = expectError(await t.request('GET', '/v1/organization', { key: t.publishableKey }), 401, 'INVALID_API_KEY');
    expect(err.message).toMatch(/secret key/);
  });

  it('refuses a revoked key at once', async () => {
    expectData(await t.request('GET', '/v1/organization'), Organization);
    await t.store.apiKeys.revokeApiKey(t.apiKeyId, clock.now());
    const err = expectError(await t.request('GET', '/v1/organization'), 401, 'INVALID_API_KEY');
    expect(err.message).toMatch(/revoked/);
  });

  it('keeps several keys active at once, each revocable on its own', async () => {
    const second = await t.createKey({ name: 'CI' });
    expectData(await t.request('GET', '/v1/organization'), Organization);
    expectData(await t.request('GET', '/v1/organization', { key: second.key }), Organization);
    await t.store.apiKeys.revokeApiKey(second.id, clock.now());
    expectError(await t.request('GET', '/v1/organization', { key: second.key }), 401, 'INVALID_API_KEY');
    expectData(await t.request('GET', '/v1/organization'), Organization);
  });

  it('stores secret keys only as SHA-256 hashes, never in plain text; a publishable key, public by design, in full too', async () => {
    const extra = await t.createKey({ scopes: ['experiences:read'] });
    const secrets = [t.secretKey, extra.key];
    // Everything in every table, as text, and each key's row found by its hash.
    const { dump, hasHash } = await tablesAsText(t);
    for (const key of [...secrets, t.publishableKey]) expect(await hasHash(createHash('sha256').update(key).digest())).toBe(true);
    for (const key of secrets) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(12)); // not even the secret part
    }
    // The publishable key is kept whole (it is in every page that embeds the widget), to be listed.
    expect(dump).toContain(t.publishableKey);
    // And in the files themselves (database and write-ahead log).
    for (const file of [t.dbPath, `${t.dbPath}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file).toString('latin1');
      for (const key of secrets) expect(bytes.includes(key.slice(12))).toBe(false);
    }
  });

  it('records lastUsedAt, writing it at most once a minute', async () => {
    expect((await t.store.apiKeys.getApiKey(t.apiKeyId))?.lastUsedAt).toBeNull();
    const first = clock.now();
    await t.request('GET', '/v1/organization');
    expect((await t.store.apiKeys.getApiKey(t.apiKeyId))?.lastUsedAt).toBe(first);
    clock.advance(30_000);
    await t.request('GET', '/v1/organization');
    expect((await t.store.apiKeys.getApiKey(t.apiKeyId))?.lastUsedAt).toBe(first);
    clock.advance(31_000);
    await t.request('GET', '/v1/organization');
    expect((await t.store.apiKeys.getApiKey(t.apiKeyId))?.lastUsedAt).toBe(first + 61_000);
  });

  it('does not record lastUsedAt for a refused key', async () => {
    await t.store.apiKeys.revokeApiKey(t.apiKeyId, clock.now());
    await t.request('GET', '/v1/organization');
    expect((await t.store.apiKeys.getApiKey(t.apiKeyId))?.lastUsedAt).toBeNull();
  });
});

describe('scopes', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('gives a key created without scopes every scope, shown as ["*"]', async () => {
    const row = await t.store.apiKeys.getApiKey(t.apiKeyId);
    expect(JSON.parse(row?.scopes ?? '')).toEqual(['*']);
  });

  it('lets a key use the routes of its scopes and answers 403 naming the missing scope elsewhere', async () => {
    const reader = await t.createKey({ scopes: ['experiences:read'] });
    expectList(await t.request('GET', '/v1/experiences', { key: reader.key }), Experience);
    const write = expectError(
      await t.request('POST', '/v1/experiences', { key: reader.key, body: { name: 'x' } }),
      403,
      'FORBIDDEN',
    );
    expect(write.message).toContain('experiences:write');
    const org = expectError(await t.request('GET', '/v1/organization', { key: reader.key }), 403, 'FORBIDDEN');
    expect(org.message).toContain('organization:read');
    const patch = expectError(
      await t.request('PATCH', '/v1/organization', { key: reader.key, body: { name: 'New' } }),
      403,
      'FORBIDDEN',
    );
    expect(patch.message).toContain('organization:write');
  });

  it('does not let a write scope imply the read scope', async () => {
    const writer = await t.createKey({ scopes: ['organization:write'] });
    expectData(await t.request('PATCH', '/v1/organization', { key: writer.key, body: { name: 'Renamed' } }), Organization);
    expectError(await t.request('GET', '/v1/organization', { key: writer.key }), 403, 'FORBIDDEN');
  });

  it('checks authentication and scope before validating the body or query', async () => {
    const bad = { body: 'not json', headers: { 'content-type': 'application/json' } };
    expectError(await t.request('POST', '/v1/experiences', { ...bad, key: null }), 401, 'UNAUTHORIZED');
    expectError(await t.request('POST', '/v1/experiences', { ...bad, key: 'osk_bad' }), 401, 'INVALID_API_KEY');
    expectError(await t.request('POST', '/v1/experiences', { body: { name: 42 }, key: 'osk_bad' }), 401, 'INVALID_API_KEY');
    expectError(
      await t.request('POST', '/v1/experiences', { body: 'x', headers: { 'content-type': 'text/plain' }, key: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await t.request('GET', '/v1/experiences?limit=abc', { key: null }), 401, 'UNAUTHORIZED');
    const reader = await t.createKey({ scopes: ['experiences:read'] });
    expectError(await t.request('POST', '/v1/experiences', { ...bad, key: reader.key }), 403, 'FORBIDDEN');
    expectError(await t.request('GET', '/v1/organization?foo=1', { key: reader.key }), 403, 'FORBIDDEN');
  });

  it('checks the key before the shape of a path id', async () => {
    expectError(await t.request('GET', '/v1/experiences/not-an-id', { key: null }), 401, 'UNAUTHORIZED');
  });
});
