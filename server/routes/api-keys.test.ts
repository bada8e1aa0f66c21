import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, expectValidationError, type TestApp } from '../test-helpers/index.js';
import { addUser, signIn } from '../test-helpers/accounts.js';
import { ApiKey, ApiKeyRevoked, ApiKeyWithSecret, Organization } from '../../shared/index.js';

describe('/v1/api-keys', { timeout: 120_000 }, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const activity = async () => (await t.store.activity.listActivity(t.orgId, {}, { limit: 100, offset: 0 })).rows;

  it('lists secret and publishable keys: a publishable key in full, a secret key never', async () => {
    const list = expectList(await t.request('GET', '/v1/api-keys'), ApiKey);
    // Both were made in the same millisecond by init: their order is the ids' random part.
    expect(list.data.map((k) => k.type).sort()).toEqual(['publishable', 'secret']);
    expect(list.data.find((k) => k.type === 'secret')).toEqual({
      id: t.apiKeyId,
      name: 'Default secret key',
      type: 'secret',
      scopes: ['*'],
      prefix: t.secretKey.slice(0, 12),
      key: null,
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      revokedAt: null,
    });
    // A publishable key is in every page that embeds the widget: listed whole, to be copied.
    expect(list.data.find((k) => k.type === 'publishable')).toMatchObject({
      name: 'Default publishable key',
      prefix: t.publishableKey.slice(0, 12),
      key: t.publishableKey,
    });
    const text = JSON.stringify(list);
    expect(text).not.toContain(t.secretKey);
    expect(text).not.toMatch(/keyHash|key_hash|keyValue|key_value/);
    // Another org's keys are not listed.
    await t.addOrganization({ name: 'Other', email: 'other@example.com' });
    expect(expectList(await t.request('GET', '/v1/api-keys'), ApiKey).data).toHaveLength(2);
  });

  it('lists a publishable key made before its value was kept with key null, and one made over the API in full', async () => {
    // As migration 011 leaves a key made by an earlier version: its hash, no value.
    await t.store.apiKeys.insertApiKey({
      id: 'key_older000000000000000001', orgId: t.orgId, name: 'Older widget key', type: 'publishable', scopes: '["*"]',
      prefix: 'opk_Older123', keyHash: Buffer.alloc(32, 7), keyValue: null, createdAt: 1, lastUsedAt: null, revokedAt: null,
    });
    const made = expectData(await t.request('POST', '/v1/api-keys', { body: { name: 'Website', type: 'publishable' } }), ApiKeyWithSecret, 201);
    const list = expectList(await t.request('GET', '/v1/api-keys'), ApiKey).data;
    expect(list.find((k) => k.name === 'Older widget key')).toMatchObject({ type: 'publishable', prefix: 'opk_Older123', key: null });
    expect(list.find((k) => k.id === made.id)?.key).toBe(made.key);
    // Revoked, it is still listed in full: it was public anyway, and the operator sees what stopped working.
    expectData(await t.request('DELETE', `/v1/api-keys/${made.id}`), ApiKeyRevoked);
    expect(expectList(await t.request('GET', '/v1/api-keys'), ApiKey).data.find((k) => k.id === made.id)).toMatchObject({ key: made.key, revokedAt: expect.any(String) });
  });

  it('creates a key shown once, with the caller’s scopes by default, and logs it', async () => {
    const made = expectData(await t.request('POST', '/v1/api-keys', { body: { name: 'Front desk' } }), ApiKeyWithSecret, 201);
    expect(made).toMatchObject({ name: 'Front desk', type: 'secret', scopes: ['*'], revokedAt: null, lastUsedAt: null });
    expect(made.key).toMatch(/^osk_/);
    expect(made.prefix).toBe(made.key.slice(0, 12));
    expect(expectData(await t.request('GET', '/v1/organization', { key: made.key }), Organization).id).toBe(t.orgId);
    expect(JSON.stringify((await t.request('GET', '/v1/api-keys')).body)).not.toContain(made.key);
    expect((await activity())[0]).toMatchObject({ action: 'api_key.create', targetType: 'api_key', targetId: made.id, actorType: 'key', actorId: t.apiKeyId });

    const narrow = (await t.createKey({ scopes: ['keys:write', 'bookings:read'] })).key;
    const child = expectData(await t.request('POST', '/v1/api-keys', { key: narrow, body: { name: 'Child' } }), ApiKeyWithSecret, 201);
    expect(child.scopes).toEqual(['keys:write', 'bookings:read']);

    const publishable = expectData(await t.request('POST', '/v1/api-keys', { body: { name: 'Widget', type: 'publishable' } }), ApiKeyWithSecret, 201);
    expect(publishable.key).toMatch(/^opk_/);
    expect(publishable.type).toBe('publishable');
    // A secret key made here is never listed again; the publishable one is.
    const listed = JSON.stringify((await t.request('GET', '/v1/api-keys')).body);
    expect(listed).not.toContain(child.key);
    expect(listed).toContain(publishable.key);
  });

  it('refuses a key wider than its maker: 403 FORBIDDEN', async () => {
    const narrow = (await t.createKey({ scopes: ['keys:write', 'bookings:read'] })).key;
    const error = expectError(
      await t.request('POST', '/v1/api-keys', { key: narrow, body: { name: 'Wider', scopes: ['bookings:read', 'organization:write'] } }),
      403,
      'FORBIDDEN',
    );
    expect(error.message).toMatch(/organization:write/);
    expect(expectList(await t.request('GET', '/v1/api-keys'), ApiKey).data).toHaveLength(3);
    // A '*' key may grant anything.
    const granted = expectData(await t.request('POST', '/v1/api-keys', { body: { name: 'Ops', scopes: ['organization:write', 'users:read'] } }), ApiKeyWithSecret, 201);
    expect(granted.scopes).toEqual(['organization:write', 'users:read']);
  });

  it('a staff user cannot mint keys at all, an owner may grant anything', async () => {
    const staff = await signIn(t, (await addUser(t, { role: 'staff' })).email);
    expectError(await t.request('POST', '/v1/api-keys', { key: null, headers: staff.headers, body: { name: 'Mine' } }), 403, 'FORBIDDEN');
    const owner = await signIn(t, (await addUser(t, { role: 'owner' })).email);
    const made = expectData(await t.request('POST', '/v1/api-keys', { key: null, headers: owner.headers, body: { name: 'Owner’s' } }), ApiKeyWithSecret, 201);
    expect(made.scopes).toEqual(['*']);
    expect((await activity())[0]).toMatchObject({ action: 'api_key.create', actorType: 'user' });
  });

  it('validates the body', async () => {
    expectValidationError(await t.request('POST', '/v1/api-keys', { body: {} }), 'name');
    expectValidationError(await t.request('POST', '/v1/api-keys', { body: { name: 'x', scopes: ['bookings:delete'] } }), 'scopes[0]');
    expectValidationError(await t.request('POST', '/v1/api-keys', { body: { name: 'x', scopes: [] } }), 'scopes');
    expectValidationError(await t.request('POST', '/v1/api-keys', { body: { name: 'x', type: 'publishable', scopes: ['bookings:read'] } }), 'scopes');
  });

  it('revokes at once, the key making the request included, and logs it once', async () => {
    const other = await t.createKey({ name: 'Spare' });
    const res = await t.request('DELETE', `/v1/api-keys/${other.id}`);
    const revoked = expectData(res, ApiKeyRevoked);
    expect(revoked.id).toBe(other.id);
    expectError(await t.request('GET', '/v1/organization', { key: other.key }), 401, 'INVALID_API_KEY');

    const self = expectData(await t.request('DELETE', `/v1/api-keys/${t.apiKeyId}`), ApiKeyRevoked);
    expect(self.id).toBe(t.apiKeyId);
    expectError(await t.request('GET', '/v1/api-keys'), 401, 'INVALID_API_KEY');
    const revokes = (await activity()).filter((a) => a.action === 'api_key.revoke');
    expect(revokes.map((a) => a.targetId).sort()).toEqual([other.id, t.apiKeyId].sort());
  });

  it('another org’s key is 404, and a revoked key stays revoked', async () => {
    const other = await t.addOrganization({ name: 'Other', email: 'other@example.com' });
    expectError(await t.request('DELETE', `/v1/api-keys/${other.apiKeyId}`), 404, 'NOT_FOUND');
    expect(expectData(await t.request('GET', '/v1/organization', { key: other.secretKey }), Organization).id).toBe(other.orgId);
    const spare = await t.createKey();
    const first = expectData(await t.request('DELETE', `/v1/api-keys/${spare.id}`), ApiKeyRevoked);
    const second = expectData(await t.request('DELETE', `/v1/api-keys/${spare.id}`), ApiKeyRevoked);
    expect(second.revokedAt).toBe(first.revokedAt);
    expect((await activity()).filter((a) => a.action === 'api_key.revoke')).toHaveLength(1);
  });

  it('needs keys:read and keys:write', async () => {
    const bookingsOnly = (await t.createKey({ scopes: ['bookings:read'] })).key;
    expect(expectError(await t.request('GET', '/v1/api-keys', { key: bookingsOnly }), 403, 'FORBIDDEN').message).toBe('This API key lacks the scope keys:read');
    const readOnly = (await t.createKey({ scopes: ['keys:read'] })).key;
    expectList(await t.request('GET', '/v1/api-keys', { key: readOnly }), ApiKey);
    expectError(await t.request('DELETE', `/v1/api-keys/${t.apiKeyId}`, { key: readOnly }), 403, 'FORBIDDEN');
  });
});
