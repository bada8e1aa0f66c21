import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRow, apiKeyStore } from '../api-keys.js';
import type { Async } from '../index.js';
import { bothEngines, refusedOnBoth, sameOnBoth, REFUSALS, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { apiKeyStorePg } from './api-keys.js';

type Engine = Async<ReturnType<typeof apiKeyStore>>;


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

  const plant = (table: string, row: Record<string, unknown>) => e.plant(table, row);

  const same = <T>(call: (s: Engine) => Promise<T>) => sameOnBoth<Engine, T>(e.sqlite, pg, call);

  const bothRefuse = (call: (s: Engine) => Promise<unknown>, why: keyof typeof REFUSALS) => refusedOnBoth<Engine>(e.sqlite, pg, call, why);

  const key = (id: string, orgId: string, createdAt: number, fields: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
    id, orgId, name: `Key ${id}`, type: 'secret', scopes: '["*"]', prefix: `sk_${id}`.slice(0, 12), keyHash: sha256(id),
    keyValue: null, createdAt, lastUsedAt: null, revokedAt: null, ...fields,
  });

  it('keeps keys, finds them by exact hash and id, lists, revokes and touches them', async () => {
    expect(await same((s) => s.listApiKeys('org_A'))).toEqual([]);
    await same((s) => s.insertApiKey(key('key_c', 'org_A', 1000)));
    await same((s) => s.insertApiKey(key('key_B', 'org_A', 1000, { type: 'publishable', scopes: '["bookings:read"]', keyValue: 'opk_valueOfB' })));
    await same((s) => s.insertApiKey(key('key_a', 'org_A', 2000, { lastUsedAt: 1500, revokedAt: 1600 })));
    await same((s) => s.insertApiKey(key('key_b', 'org_A', 500)));
    await same((s) => s.insertApiKey(key('key_z', 'org_B', 1)));

    // Oldest first; equal times by id, byte-wise (upper case before lower case).
    expect((await same((s) => s.listApiKeys('org_A'))).map((k) => k.id)).toEqual(['key_b', 'key_B', 'key_c', 'key_a']);
    expect((await same((s) => s.listApiKeys('org_B'))).map((k) => k.id)).toEqual(['key_z']);
    expect(await same((s) => s.listApiKeys('org_missing'))).toEqual([]);

    // The hash comes back as a Buffer and only an identical one finds the key.
    const found = await same((s) => s.getApiKeyByHash(sha256('key_B')));
    expect(found).toMatchObject({ id: 'key_B', orgId: 'org_A', type: 'publishable', keyValue: 'opk_valueOfB' });
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
    // A secret key's value is never kept: the schema refuses one on both engines.
    await bothRefuse((s) => s.insertApiKey(key('key_g', 'org_A', 3000, { keyValue: 'osk_secret' })), 'check');
    expect(await same((s) => s.getApiKey('key_c'))).toMatchObject({ keyValue: null });
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
