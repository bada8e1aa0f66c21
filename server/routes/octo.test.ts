import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-helpers/index.js';

describe('OCTO: access and errors', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('lists its capabilities to a key with the octo scope', async () => {
    const res = await t.request('GET', '/octo/capabilities');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 'octo/pricing', revision: 1, required: false, dependencies: [], docs: null }]);
    expect(res.headers.get('octo-capabilities')).toBe('');
  });

  it('refuses a missing key with UNAUTHORIZED and a key without the scope with FORBIDDEN', async () => {
    const none = await t.request('GET', '/octo/capabilities', { key: null });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'UNAUTHORIZED', errorMessage: expect.any(String) });
    const key = await t.createKey({ scopes: ['bookings:read'] });
    const other = await t.request('GET', '/octo/capabilities', { key: key.key });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'FORBIDDEN', errorMessage: expect.any(String) });
  });
});
