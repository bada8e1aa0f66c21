import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { ApiKeyRow } from './api-keys.js';
import { addOrganization, openTestStore, testEngine } from '../test-helpers/index.js';
import { openTwoStores } from '../test-helpers/process-database.js';
import { generateApiKey, hashSecret } from '../domain/api-keys.js';
import { REFUSALS } from '../test-helpers/engines.js';

/** What a write broken by this kind of constraint rejects with, on the engine under test. */
const refusal = (why: keyof typeof REFUSALS) => ({
  code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg,
});

const keyRow = (orgId: string, id: string, key: string, createdAt: number): ApiKeyRow => ({
  id, orgId, name: id, type: 'secret', scopes: '["*"]', prefix: key.slice(0, 12), keyHash: hashSecret(key), keyValue: null, createdAt, lastUsedAt: null, revokedAt: null,
});

describe(`api key store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let orgId: string;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    orgId = (await addOrganization(store)).orgId;
  });
  afterEach(async () => {
    await opened.close();
  });

  const row = (id: string, key: string, createdAt: number) => keyRow(orgId, id, key, createdAt);

  it('finds a key by the hash of its value only', async () => {
    const key = generateApiKey('secret');
    await store.apiKeys.insertApiKey(row('key_a', key, 10));
    expect((await store.apiKeys.getApiKeyByHash(hashSecret(key)))?.id).toBe('key_a');
    expect(await store.apiKeys.getApiKeyByHash(hashSecret(`${key}x`))).toBeUndefined();
  });

  it('answers the whole row, its hash as a Buffer, and finds it by exactly that hash', async () => {
    const key = 'osk_test_exactly_this_value';
    await store.apiKeys.insertApiKey({ ...row('key_B', key, 1000), type: 'publishable', scopes: '["bookings:read"]', keyValue: 'opk_valueOfB' });
    const found = await store.apiKeys.getApiKeyByHash(hashSecret(key));
    expect(found).toStrictEqual({
      id: 'key_B', orgId, name: 'key_B', type: 'publishable', scopes: '["bookings:read"]', prefix: 'osk_test_exa', keyHash: hashSecret(key),
      keyValue: 'opk_valueOfB', createdAt: 1000, lastUsedAt: null, revokedAt: null,
    });
    expect(Buffer.isBuffer(found?.keyHash)).toBe(true);
    // The order of the row's keys is the order of the JSON written from it.
    expect(Object.keys(found!)).toEqual(['id', 'orgId', 'name', 'type', 'scopes', 'prefix', 'keyHash', 'keyValue', 'createdAt', 'lastUsedAt', 'revokedAt']);
    expect(await store.apiKeys.getApiKey('key_B')).toStrictEqual(found);
    expect(await store.apiKeys.getApiKey('KEY_B')).toBeUndefined();
    // One bit off, one byte short or long, or empty: no key.
    const near = Buffer.from(hashSecret(key));
    near.writeUInt8(near.readUInt8(31) ^ 1, 31);
    expect(await store.apiKeys.getApiKeyByHash(near)).toBeUndefined();
    expect(await store.apiKeys.getApiKeyByHash(hashSecret(key).subarray(0, 31))).toBeUndefined();
    expect(await store.apiKeys.getApiKeyByHash(Buffer.concat([hashSecret(key), Buffer.from([0])]))).toBeUndefined();
    expect(await store.apiKeys.getApiKeyByHash(Buffer.alloc(0))).toBeUndefined();
  });

  it('refuses two keys with the same hash or id, a key of no organization, an unknown type and a kept secret', async () => {
    const key = generateApiKey('secret');
    await store.apiKeys.insertApiKey(row('key_a', key, 10));
    await expect(store.apiKeys.insertApiKey(row('key_b', key, 11))).rejects.toMatchObject(refusal('unique'));
    await expect(store.apiKeys.insertApiKey(row('key_a', generateApiKey('secret'), 11))).rejects.toMatchObject(refusal('unique'));
    await expect(store.apiKeys.insertApiKey(keyRow('org_missing', 'key_c', generateApiKey('secret'), 11))).rejects.toMatchObject(refusal('foreignKey'));
    await expect(
      store.apiKeys.insertApiKey({ ...row('key_d', generateApiKey('secret'), 11), type: 'admin' as ApiKeyRow['type'] }),
    ).rejects.toMatchObject(refusal('check'));
    // A secret key's value is never kept: the schema refuses one.
    await expect(store.apiKeys.insertApiKey({ ...row('key_e', generateApiKey('secret'), 11), keyValue: 'osk_secret' })).rejects.toMatchObject(
      refusal('check'),
    );
    expect(await store.apiKeys.getApiKey('key_b')).toBeUndefined();
    expect(await store.apiKeys.getApiKey('key_e')).toBeUndefined();
    expect((await store.apiKeys.getApiKey('key_a'))?.keyHash).toEqual(hashSecret(key));
  });

  it('lists an org’s keys oldest first, id breaking ties', async () => {
    const before = (await store.apiKeys.listApiKeys(orgId)).length; // the org's default keys
    await store.apiKeys.insertApiKey(row('key_c', generateApiKey('secret'), 1e15));
    await store.apiKeys.insertApiKey(row('key_b', generateApiKey('secret'), 1e15));
    await store.apiKeys.insertApiKey(row('key_a', generateApiKey('secret'), 1e15 + 1));
    await store.apiKeys.insertApiKey(row('key_B', generateApiKey('secret'), 1e15));
    // Equal times by id, byte for byte (upper case first).
    expect((await store.apiKeys.listApiKeys(orgId)).slice(before).map((k) => k.id)).toEqual(['key_B', 'key_b', 'key_c', 'key_a']);
    expect(await store.apiKeys.listApiKeys('org_other')).toEqual([]);
    const second = (await addOrganization(store)).orgId;
    expect((await store.apiKeys.listApiKeys(second)).map((k) => k.id)).not.toContain('key_a');
  });

  it('keeps the first revocation time; revoking an unknown key changes nothing', async () => {
    await store.apiKeys.insertApiKey(row('key_a', generateApiKey('secret'), 10));
    await store.apiKeys.insertApiKey({ ...row('key_b', generateApiKey('secret'), 10), revokedAt: 50 });
    await store.apiKeys.revokeApiKey('key_a', 100);
    await store.apiKeys.revokeApiKey('key_a', 200);
    await store.apiKeys.revokeApiKey('key_b', 300);
    await store.apiKeys.revokeApiKey('key_missing', 300);
    expect((await store.apiKeys.getApiKey('key_a'))?.revokedAt).toBe(100);
    expect((await store.apiKeys.getApiKey('key_b'))?.revokedAt).toBe(50);
    expect(await store.apiKeys.getApiKey('key_missing')).toBeUndefined();
  });

  it('records the last use, overwriting the one before, revoked or not', async () => {
    await store.apiKeys.insertApiKey(row('key_a', generateApiKey('secret'), 10));
    await store.apiKeys.insertApiKey({ ...row('key_b', generateApiKey('secret'), 10), lastUsedAt: 15, revokedAt: 20 });
    await store.apiKeys.touchApiKey('key_a', 500);
    await store.apiKeys.touchApiKey('key_a', 450);
    await store.apiKeys.touchApiKey('key_b', 600);
    await store.apiKeys.touchApiKey('key_missing', 600);
    expect(await store.apiKeys.getApiKey('key_a')).toMatchObject({ lastUsedAt: 450, revokedAt: null });
    expect(await store.apiKeys.getApiKey('key_b')).toMatchObject({ lastUsedAt: 600, revokedAt: 20 });
  });

  it('keeps times past 2^31 and 2^32 as numbers', async () => {
    const far = 4_102_444_800_000; // 2100-01-01, epoch milliseconds
    await store.apiKeys.insertApiKey({ ...row('key_far', generateApiKey('secret'), far), lastUsedAt: far + 1 });
    await store.apiKeys.revokeApiKey('key_far', far + 2);
    expect(await store.apiKeys.getApiKey('key_far')).toMatchObject({ createdAt: far, lastUsedAt: far + 1, revokedAt: far + 2 });
  });
});

// Every request looks its key up: a revocation, from this store or another connection, holds from
// the next lookup on, and a key a rolled-back transaction wrote is never found.
describe(`api key lookups after changes (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTwoStores>>;
  let store: Store;
  let other: Store;
  let orgId: string;
  beforeEach(async () => {
    opened = await openTwoStores();
    ({ store, other } = opened);
    orgId = (await addOrganization(store)).orgId;
  });
  afterEach(async () => {
    await opened.close();
  });

  const insertKey = async (into: Store, id: string, key: string) => await into.apiKeys.insertApiKey(keyRow(orgId, id, key, 10));

  it('sees a revocation and a last use written through the same store at the next lookup', async () => {
    const key = generateApiKey('secret');
    await insertKey(store, 'key_a', key);
    expect((await store.apiKeys.getApiKeyByHash(hashSecret(key)))?.revokedAt).toBeNull();
    await store.apiKeys.touchApiKey('key_a', 50);
    expect((await store.apiKeys.getApiKeyByHash(hashSecret(key)))?.lastUsedAt).toBe(50);
    await store.apiKeys.revokeApiKey('key_a', 100);
    expect((await store.apiKeys.getApiKeyByHash(hashSecret(key)))?.revokedAt).toBe(100);
  });

  it('sees keys revoked and added through another connection (the CLI, another process)', async () => {
    const key = generateApiKey('secret');
    await insertKey(store, 'key_a', key);
    expect((await store.apiKeys.getApiKeyByHash(hashSecret(key)))?.revokedAt).toBeNull();
    await other.apiKeys.revokeApiKey('key_a', 100);
    expect((await store.apiKeys.getApiKeyByHash(hashSecret(key)))?.revokedAt).toBe(100);
    const added = generateApiKey('secret');
    expect(await store.apiKeys.getApiKeyByHash(hashSecret(added))).toBeUndefined();
    await insertKey(other, 'key_b', added);
    expect((await store.apiKeys.getApiKeyByHash(hashSecret(added)))?.id).toBe('key_b');
  });

  it('does not find a key whose transaction rolled back, though it was read inside it', async () => {
    const key = generateApiKey('secret');
    await expect(
      store.transaction(async () => {
        await insertKey(store, 'key_a', key);
        expect((await store.apiKeys.getApiKeyByHash(hashSecret(key)))?.id).toBe('key_a');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.apiKeys.getApiKeyByHash(hashSecret(key))).toBeUndefined();
  });
});
