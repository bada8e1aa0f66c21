import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { ApiKeyRow } from './api-keys.js';
import { addOrganization, openTestStore, testEngine } from '../test-helpers/index.js';
import { openTwoStores } from '../test-helpers/process-database.js';
import { generateApiKey, hashSecret } from '../domain/api-keys.js';

const keyRow = (orgId: string, id: string, key: string, createdAt: number): ApiKeyRow => ({
  id, orgId, name: id, type: 'secret', scopes: '["*"]', prefix: key.slice(0, 12), keyHash: hashSecret(key), keyValue: null, createdAt, lastUsedAt: null, revokedAt: null,
});

// Behaviour of the store, not of SQLite: run with OUTING_TEST_ENGINE=postgres, the same tests hold
// the PostgreSQL store to it (a leased, migrated database of the test cluster).

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

  it('refuses two keys with the same hash', async () => {
    const key = generateApiKey('secret');
    await store.apiKeys.insertApiKey(row('key_a', key, 10));
    await expect(store.apiKeys.insertApiKey(row('key_b', key, 11))).rejects.toThrow();
  });

  it('lists an org’s keys oldest first, id breaking ties', async () => {
    const before = (await store.apiKeys.listApiKeys(orgId)).length; // the org's default keys
    await store.apiKeys.insertApiKey(row('key_c', generateApiKey('secret'), 1e15));
    await store.apiKeys.insertApiKey(row('key_b', generateApiKey('secret'), 1e15));
    await store.apiKeys.insertApiKey(row('key_a', generateApiKey('secret'), 1e15 + 1));
    expect((await store.apiKeys.listApiKeys(orgId)).slice(before).map((k) => k.id)).toEqual(['key_b', 'key_c', 'key_a']);
    expect(await store.apiKeys.listApiKeys('org_other')).toEqual([]);
  });

  it('keeps the first revocation time', async () => {
    await store.apiKeys.insertApiKey(row('key_a', generateApiKey('secret'), 10));
    await store.apiKeys.revokeApiKey('key_a', 100);
    await store.apiKeys.revokeApiKey('key_a', 200);
    expect((await store.apiKeys.getApiKey('key_a'))?.revokedAt).toBe(100);
  });

  it('records the last use', async () => {
    await store.apiKeys.insertApiKey(row('key_a', generateApiKey('secret'), 10));
    await store.apiKeys.touchApiKey('key_a', 500);
    expect((await store.apiKeys.getApiKey('key_a'))?.lastUsedAt).toBe(500);
  });
});

// The SQLite store keeps the keys it has read (every request looks its key up); each of these
// would fail if a kept row outlived the change.
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
