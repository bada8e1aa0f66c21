import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRow, apiKeyStore } from '../api-keys.js';
import type { Async } from '../index.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { apiKeyStorePg } from './api-keys.js';

type Engine = Async<ReturnType<typeof apiKeyStore>>;

/** The constraint a refused write broke, as each engine names it. */
const REFUSALS = {
  unique: { sqlite: /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/, pg: '23505' },
  foreignKey: { sqlite: /^SQLITE_CONSTRAINT_FOREIGNKEY$/, pg: '23503' },
  check: { sqlite: /^SQLITE_CONSTRAINT_CHECK$/, pg: '23514' },
};

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

describe.skipIf(!testDatabaseUrl())('apiKeyStorePg answers as the SQLite store does', () => {
  let e: BothEngines;
  let pg: Engine;
  beforeEach(async () => {
    e = await bothEngines();
    pg = apiKeyStorePg(e.pgDb);
    for (const id of ['org_A', 'org_B']) await plant('organizations', { id, name: id, email: `${id}@example.com`, timezone: 'UTC', created_at: 1, updated_at: 1 });
  });
  afterEach(async () => {
    await e.close();
  });

  /** A row of a table this module does not own, written with plain SQL on both engines. */
  async function plant(table: string, row: Record<string, unknown>): Promise<void> {
    const columns = Object.keys(row).join(', ');
    const values = Object.values(row);
    e.sqliteDb.prepare(`INSERT INTO ${table} (${columns}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
    await e.pgDb.run(`INSERT INTO ${table} (${columns}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  }

  /** Asks both engines the same thing; PostgreSQL's answer must equal SQLite's. */
  async function same<T>(call: (s: Engine) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    expect(await call(pg)).toStrictEqual(expected);
    return expected;
  }

  /** Both engines refuse the same write, for the same broken constraint. */
  async function bothRefuse(call: (s: Engine) => Promise<unknown>, why: keyof typeof REFUSALS): Promise<void> {
    await expect(call(e.sqlite)).rejects.toMatchObject({ code: expect.stringMatching(REFUSALS[why].sqlite) });
    await expect(call(pg)).rejects.toMatchObject({ code: REFUSALS[why].pg });
  }

  const key = (id: string, orgId: string, createdAt: number, fields: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
    id, orgId, name: `Key ${id}`, type: 'secret', scopes: '["*"]', prefix: `sk_${id}`.slice(0, 12), keyHash: sha256(id),
    createdAt, lastUsedAt: null, revokedAt: null, ...fields,
  });

  it('keeps keys, finds them by exact hash and id, lists, revokes and touches them', async () => {
    expect(await same((s) => s.listApiKeys('org_A'))).toEqual([]);
    await same((s) => s.insertApiKey(key('key_c', 'org_A', 1000)));
    await same((s) => s.insertApiKey(key('key_B', 'org_A', 1000, { type: 'publishable', scopes: '["bookings:read"]' })));
    await same((s) => s.insertApiKey(key('key_a', 'org_A', 2000, { lastUsedAt: 1500, revokedAt: 1600 })));
    await same((s) => s.insertApiKey(key('key_b', 'org_A', 500)));
    await same((s) => s.insertApiKey(key('key_z', 'org_B', 1)));

    // Oldest first; equal times by id, byte-wise (upper case before lower case).
    expect((await same((s) => s.listApiKeys('org_A'))).map((k) => k.id)).toEqual(['key_b', 'key_B', 'key_c', 'key_a']);
    expect((await same((s) => s.listApiKeys('org_B'))).map((k) => k.id)).toEqual(['key_z']);
    expect(await same((s) => s.listApiKeys('org_missing'))).toEqual([]);

    // The hash comes back as a Buffer and only an identical one finds the key.
    const found = await same((s) => s.getApiKeyByHash(sha256('key_B')));
    expect(found).toMatchObject({ id: 'key_B', orgId: 'org_A', type: 'publishable' });
    expect(Buffer.isBuffer(found?.keyHash)).toBe(true);
    const near = Buffer.from(sha256('key_B'));
    near.writeUInt8(near.readUInt8(31) ^ 1, 31);
    expect(await same((s) => s.getApiKeyByHash(near))).toBeUndefined();
    expect(await same((s) => s.getApiKeyByHash(sha256('key_B').subarray(0, 31)))).toBeUndefined();
    expect(await same((s) => s.getApiKeyByHash(Buffer.concat([sha256('key_B'), Buffer.from([0])])))).toBeUndefined();
    expect(await same((s) => s.getApiKeyByHash(Buffer.alloc(0)))).toBeUndefined();

    expect(await same((s) => s.getApiKey('key_a'))).toMatchObject({ lastUsedAt: 1500, revokedAt: 1600 });
    expect(await same((s) => s.getApiKey('KEY_A'))).toBeUndefined();

    await bothRefuse((s) => s.insertApiKey(key('key_d', 'org_A', 3000, { keyHash: sha256('key_c') })), 'unique');
    await bothRefuse((s) => s.insertApiKey(key('key_c', 'org_A', 3000, { keyHash: sha256('other') })), 'unique');
    await bothRefuse((s) => s.insertApiKey(key('key_e', 'org_missing', 3000)), 'foreignKey');
    await bothRefuse((s) => s.insertApiKey(key('key_f', 'org_A', 3000, { type: 'admin' as ApiKeyRow['type'] })), 'check');
    expect((await same((s) => s.listApiKeys('org_A'))).length).toBe(4);

    // The first revocation time stays.
    await same((s) => s.revokeApiKey('key_c', 5000));
    await same((s) => s.revokeApiKey('key_c', 6000));
    await same((s) => s.revokeApiKey('key_a', 7000));
    await same((s) => s.revokeApiKey('key_missing', 7000));
    expect(await same((s) => s.getApiKey('key_c'))).toMatchObject({ revokedAt: 5000 });
    expect(await same((s) => s.getApiKey('key_a'))).toMatchObject({ revokedAt: 1600 });

    // Touching overwrites the last use, revoked or not.
    await same((s) => s.touchApiKey('key_B', 8000));
    await same((s) => s.touchApiKey('key_a', 9000));
    await same((s) => s.touchApiKey('key_B', 8500));
    await same((s) => s.touchApiKey('key_missing', 9000));
    expect(await same((s) => s.getApiKeyByHash(sha256('key_B')))).toMatchObject({ lastUsedAt: 8500, revokedAt: null });
    await same((s) => s.listApiKeys('org_A'));
  });

  it('keeps times past 2^31 and 2^32 as numbers', async () => {
    const far = 4_102_444_800_000; // 2100-01-01, epoch milliseconds
    await same((s) => s.insertApiKey(key('key_far', 'org_A', far, { lastUsedAt: far + 1 })));
    await same((s) => s.revokeApiKey('key_far', far + 2));
    expect(await same((s) => s.getApiKey('key_far'))).toMatchObject({ createdAt: far, lastUsedAt: far + 1, revokedAt: far + 2 });
  });
});
