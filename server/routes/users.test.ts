import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp, expectData, expectError, expectList, expectValidationError, manualClock, tampered, type ManualClock, type TestApp,
} from '../test-helpers/index.js';
import { addUser, signIn, type TestSession } from '../test-helpers/accounts.js';
import { resetUser } from '../services/users.js';
import { CLI } from '../domain/actor.js';
import { Booking, Deleted, Organization, SCOPES, Session, User, UserWithSetupUrl, type Scope } from '../../shared/index.js';

// Each sign-in hashes for about a second on purpose: a loaded machine needs more than the default time.
describe('users and the session cookie on /v1', { timeout: 120_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let owner: TestSession;
  let ownerId: string;
  beforeEach(async () => {
    clock = manualClock(Date.UTC(2026, 5, 1, 9, 0, 0));
    t = await createTestApp({ now: clock.now });
    const user = await addUser(t, { email: 'owner@test-tours.example', name: 'Olga Owner', role: 'owner' });
    ownerId = user.id;
    owner = await signIn(t, user.email);
  });
  afterEach(() => t.close());

  const as = (session: TestSession, method: string, path: string, body?: unknown) =>
    t.request(method, path, { key: null, headers: session.headers, body });
  const activity = async () => (await t.store.activity.listActivity(t.orgId, {}, { limit: 100, offset: 0 })).rows;

  describe('the cookie on /v1', () => {
    it('acts as the user with the CSRF token', async () => {
      expect(expectData(await as(owner, 'GET', '/v1/organization'), Organization).id).toBe(t.orgId);
    });

    it('is 403 FORBIDDEN without the CSRF token, or with a wrong one, and changes nothing', async () => {
      const cookie = { cookie: owner.headers.cookie ?? '' };
      const missing = expectError(await t.request('PATCH', '/v1/organization', { key: null, headers: cookie, body: { name: 'Hijacked' } }), 403, 'FORBIDDEN');
      expect(missing.message).toMatch(/CSRF token/);
      const wrong = { ...cookie, 'x-csrf-token': tampered(owner.csrfToken) };
      expectError(await t.request('PATCH', '/v1/organization', { key: null, headers: wrong, body: { name: 'Hijacked' } }), 403, 'FORBIDDEN');
      expectError(await t.request('GET', '/v1/organization', { key: null, headers: { ...cookie, 'x-csrf-token': '' } }), 403, 'FORBIDDEN');
      // Another session's CSRF token is no good either.
      const other = await signIn(t, 'owner@test-tours.example');
      expectError(await t.request('GET', '/v1/organization', { key: null, headers: { ...cookie, 'x-csrf-token': other.csrfToken } }), 403, 'FORBIDDEN');
      expect(expectData(await t.request('GET', '/v1/organization'), Organization).name).toBe('Test Tours');
    });

    it('is ignored when Authorization is present', async () => {
      const staffKey = (await t.createKey({ scopes: ['bookings:read'] })).key;
      // The owner's cookie does not lend the key its scopes.
      const res = await t.request('GET', '/v1/organization', { key: staffKey, headers: owner.headers });
      expectError(res, 403, 'FORBIDDEN');
      expectError(await t.request('GET', '/v1/organization', { key: 'osk_nonsense', headers: owner.headers }), 401, 'INVALID_API_KEY');
    });

    it('names the user in the activity log', async () => {
      const made = expectData(await as(owner, 'POST', '/v1/users', { email: 'new@test-tours.example', name: 'New', role: 'staff' }), UserWithSetupUrl, 201);
      const entry = (await activity()).find((a) => a.action === 'user.create' && a.targetId === made.id);
      expect(entry).toMatchObject({ actorType: 'user', actorId: ownerId, actorName: 'Olga Owner' });
    });

    it('sends no CORS headers and answers no preflight on /v1', async () => {
      const res = await t.request('GET', '/v1/organization', { key: null, headers: { ...owner.headers, origin: 'https://evil.example' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      const preflight = await t.request('OPTIONS', '/v1/organization', {
        key: null,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'x-csrf-token' },
      });
      expect(preflight.status).toBe(404);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    });

    it('is rate-limited per user', async () => {
      const limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
      try {
        const a = await signIn(limited, (await addUser(limited)).email);
        const b = await signIn(limited, (await addUser(limited)).email);
        const get = (s: TestSession) => limited.request('GET', '/v1/organization', { key: null, headers: s.headers });
        expect((await get(a)).status).toBe(200);
        expect((await get(a)).status).toBe(200);
        expectError(await get(a), 429, 'RATE_LIMITED');
        expect((await get(b)).status).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });

  describe('roles', () => {
    let staff: TestSession;
    beforeEach(async () => {
      staff = await signIn(t, (await addUser(t, { role: 'staff', name: 'Sam Staff' })).email);
    });

    it('staff read experiences and work bookings', async () => {
      expect((await as(staff, 'GET', '/v1/experiences')).status).toBe(200);
      expect((await as(staff, 'GET', '/v1/bookings')).status).toBe(200);
      expect((await as(staff, 'GET', '/v1/customers')).status).toBe(200);
      expect((await as(staff, 'GET', '/v1/calendar-feeds')).status).toBe(200);
      expect(Booking).toBeDefined();
    });

    it('staff reaching for the settings get 403 FORBIDDEN naming the scope', async () => {
      const cases: [string, string, unknown, string][] = [
        ['PATCH', '/v1/organization', { name: 'Mine now' }, 'organization:write'],
        ['GET', '/v1/webhook-endpoints', undefined, 'webhooks:read'],
        ['POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/x', events: ['BOOKING_CREATED'] }, 'webhooks:write'],
        ['GET', '/v1/api-keys', undefined, 'keys:read'],
        ['POST', '/v1/api-keys', { name: 'Mine' }, 'keys:write'],
        ['GET', '/v1/users', undefined, 'users:read'],
        ['POST', '/v1/users', { email: 'x@test-tours.example', name: 'X', role: 'owner' }, 'users:write'],
        ['PATCH', `/v1/users/${ownerId}`, { role: 'staff' }, 'users:write'],
        ['POST', '/v1/experiences', { name: 'x' }, 'experiences:write'],
      ];
      for (const [method, path, body, scope] of cases) {
        const error = expectError(await as(staff, method, path, body), 403, 'FORBIDDEN');
        expect(error.message).toBe(`Your role lacks the scope ${scope}`);
      }
      expect(expectData(await t.request('GET', '/v1/organization'), Organization).name).toBe('Test Tours');
    });
  });

  describe('/v1/users', () => {
    it('lists the org’s users', async () => {
      const other = await t.addOrganization({ name: 'Other', email: 'other@example.com' });
      await addUser(t, { orgId: other.orgId, email: 'elsewhere@example.com' });
      const list = expectList(await as(owner, 'GET', '/v1/users'), User);
      expect(list.data.map((u) => u.email)).toEqual(['owner@test-tours.example']);
      expect(list.data[0]).toEqual({
        id: ownerId,
        email: 'owner@test-tours.example',
        name: 'Olga Owner',
        role: 'owner',
        createdAt: expect.any(String),
        lastSignInAt: '2026-06-01T09:00:00.000Z',
        disabledAt: null,
      });
      // A '*' key lists them too.
      expect(expectList(await t.request('GET', '/v1/users'), User).data).toHaveLength(1);
    });

    it('adds a user with a setup link, and logs it', async () => {
      const res = await as(owner, 'POST', '/v1/users', { email: 'Guide@Test-Tours.example', name: 'Gil Guide', role: 'staff' });
      const user = expectData(res, UserWithSetupUrl, 201);
      expect(user).toMatchObject({ email: 'Guide@Test-Tours.example', name: 'Gil Guide', role: 'staff', lastSignInAt: null, disabledAt: null });
      expect(user.id).toMatch(/^usr_/);
      expect(user.setupUrl).toMatch(/^http:\/\/localhost:\d+\/dashboard\/setup#[A-Za-z0-9_-]{43}$/);
      expect((await activity())[0]).toMatchObject({ action: 'user.create', targetType: 'user', targetId: user.id, actorType: 'user', actorId: ownerId });
      // The link is not shown again.
      expect(JSON.stringify(expectList(await as(owner, 'GET', '/v1/users'), User).data)).not.toContain('setup');
    });

    it('refuses an e-mail used anywhere on the server, in any case, with one answer that tells no organization apart: 409 CONFLICT', async () => {
      const other = await t.addOrganization({ name: 'Other', email: 'other@example.com' });
      await addUser(t, { orgId: other.orgId, email: 'taken@example.com' });
      await addUser(t, { email: 'colleague@test-tours.example', role: 'staff' });
      const refusals = [];
      for (const email of ['TAKEN@example.com', 'taken@example.com', 'owner@test-tours.example', 'Colleague@Test-Tours.example']) {
        const res = await as(owner, 'POST', '/v1/users', { email, name: 'T', role: 'staff' });
        expectError(res, 409, 'CONFLICT');
        refusals.push(res.body);
      }
      // Another organization's user and one's own colleague get the same body, word for word.
      for (const body of refusals) expect(body).toEqual(refusals[0]);
      expect(JSON.stringify(refusals[0])).not.toMatch(/taken@|organi[sz]ation/i);
      // A key's request is answered alike.
      const byKey = await t.request('POST', '/v1/users', { body: { email: 'taken@example.com', name: 'T', role: 'staff' } });
      expect(byKey.body).toEqual(refusals[0]);
      expect((await t.store.users.listUsers(t.orgId)).map((u) => u.email).sort()).toEqual(['colleague@test-tours.example', 'owner@test-tours.example']);
    });

    it('validates the body', async () => {
      expectValidationError(await as(owner, 'POST', '/v1/users', { email: 'nope', name: 'T', role: 'staff' }), 'email');
      expectValidationError(await as(owner, 'POST', '/v1/users', { email: 'a@b.example', name: 'T', role: 'admin' }), 'role');
      expectValidationError(await as(owner, 'POST', '/v1/users', { email: 'a@b.example', name: ' ', role: 'staff' }), 'name');
      expectValidationError(await as(owner, 'PATCH', `/v1/users/${ownerId}`, { email: 'a@b.example' }), '');
    });

    it('renames, changes roles, disables and enables, logging each change', async () => {
      const staff = await addUser(t, { role: 'staff', name: 'Sam' });
      const patch = (body: unknown) => as(owner, 'PATCH', `/v1/users/${staff.id}`, body);
      expect(expectData(await patch({ name: 'Samuel', role: 'owner' }), User)).toMatchObject({ name: 'Samuel', role: 'owner' });
      expect(expectData(await patch({ disabled: true }), User).disabledAt).toBe('2026-06-01T09:00:00.000Z');
      expect(expectData(await patch({ disabled: false }), User).disabledAt).toBeNull();
      const updates = (await activity()).filter((a) => a.action === 'user.update');
      expect(updates).toHaveLength(3);
      expect(updates.every((a) => a.targetId === staff.id && a.actorId === ownerId)).toBe(true);
    });

    it('another org’s user is 404', async () => {
      const other = await t.addOrganization({ name: 'Other', email: 'other@example.com' });
      const stranger = await addUser(t, { orgId: other.orgId, role: 'staff' });
      expectError(await as(owner, 'PATCH', `/v1/users/${stranger.id}`, { name: 'Mine' }), 404, 'NOT_FOUND');
      expectError(await as(owner, 'DELETE', `/v1/users/${stranger.id}`), 404, 'NOT_FOUND');
      expectError(await as(owner, 'DELETE', '/v1/users/usr_doesnotexist'), 404, 'NOT_FOUND');
      expectError(await as(owner, 'DELETE', '/v1/users/key_wrongshape'), 404, 'NOT_FOUND');
    });

    it('keeps the last active owner: demoting, disabling or deleting them is 409 CONFLICT', async () => {
      expectError(await as(owner, 'PATCH', `/v1/users/${ownerId}`, { role: 'staff' }), 409, 'CONFLICT');
      expectError(await as(owner, 'PATCH', `/v1/users/${ownerId}`, { disabled: true }), 409, 'CONFLICT');
      expectError(await as(owner, 'DELETE', `/v1/users/${ownerId}`), 409, 'CONFLICT');
      // A disabled owner does not count as the other owner.
      const second = await addUser(t, { role: 'owner' });
      expectData(await as(owner, 'PATCH', `/v1/users/${second.id}`, { disabled: true }), User);
      expectError(await as(owner, 'PATCH', `/v1/users/${ownerId}`, { role: 'staff' }), 409, 'CONFLICT');
      // With another active owner, the first may step down.
      expectData(await as(owner, 'PATCH', `/v1/users/${second.id}`, { disabled: false }), User);
      expect(expectData(await as(owner, 'PATCH', `/v1/users/${ownerId}`, { role: 'staff' }), User).role).toBe('staff');
      // Now staff, the same session has a staff's scopes.
      expectError(await as(owner, 'GET', '/v1/users'), 403, 'FORBIDDEN');
      expect((await activity()).filter((a) => a.action === 'user.update')).toHaveLength(3);
    });

    it('deletes a user and answers { id, deleted }', async () => {
      const staff = await addUser(t, { role: 'staff' });
      expect(expectData(await as(owner, 'DELETE', `/v1/users/${staff.id}`), Deleted)).toEqual({ id: staff.id, deleted: true });
      expect((await activity())[0]).toMatchObject({ action: 'user.delete', targetId: staff.id });
      expectError(await as(owner, 'DELETE', `/v1/users/${staff.id}`), 404, 'NOT_FOUND');
    });
  });

  describe('giving a role takes every scope of it', () => {
    const STAFF_SCOPES = ['experiences:read', 'bookings:read', 'bookings:write', 'customers:read', 'calendars:read'] as const;
    const keyWith = async (...scopes: Scope[]) => (await t.createKey({ scopes })).key;
    const create = (key: string, role: string, email = `new-${role}-${Math.random().toString(36).slice(2, 8)}@test-tours.example`) =>
      t.request('POST', '/v1/users', { key, body: { email, name: 'New', role } });

    it('a key holding only users:write makes no owner and no staff, and promotes nobody: 403 FORBIDDEN naming what it lacks', async () => {
      const narrow = await keyWith('users:write');
      const asOwner = expectError(await create(narrow, 'owner'), 403, 'FORBIDDEN');
      expect(asOwner.message).toMatch(/^This API key cannot give the role owner: it lacks the scopes experiences:read, experiences:write, .*keys:write, users:read, promotions:read, promotions:write, octo$/);
      const asStaff = expectError(await create(narrow, 'staff'), 403, 'FORBIDDEN');
      expect(asStaff.message).toBe(`This API key cannot give the role staff: it lacks the scopes ${STAFF_SCOPES.join(', ')}`);

      const staff = await addUser(t, { role: 'staff', name: 'Sam' });
      expectError(await t.request('PATCH', `/v1/users/${staff.id}`, { key: narrow, body: { role: 'owner' } }), 403, 'FORBIDDEN');
      // Nothing was made or changed, and nothing logged.
      expect((await t.store.users.listUsers(t.orgId)).map((u) => [u.name, u.role])).toEqual([['Olga Owner', 'owner'], ['Sam', 'staff']]);
      expect((await activity()).filter((a) => a.actorType === 'key')).toEqual([]);
      // Changes that give no role stay open to it.
      expect(expectData(await t.request('PATCH', `/v1/users/${staff.id}`, { key: narrow, body: { name: 'Samuel', role: 'staff' } }), User).name).toBe('Samuel');
    });

    it('staff takes every staff scope; owner takes them all; a ["*"] key and an owner’s session give both', async () => {
      const almostStaff = await keyWith('users:write', ...STAFF_SCOPES.slice(1));
      expect(expectError(await create(almostStaff, 'staff'), 403, 'FORBIDDEN').message).toMatch(/lacks the scopes experiences:read$/);
      const staffAndUsers = await keyWith('users:write', ...STAFF_SCOPES);
      const made = expectData(await create(staffAndUsers, 'staff'), UserWithSetupUrl, 201);
      expectError(await create(staffAndUsers, 'owner'), 403, 'FORBIDDEN');
      expectError(await t.request('PATCH', `/v1/users/${made.id}`, { key: staffAndUsers, body: { role: 'owner' } }), 403, 'FORBIDDEN');

      // A key listing every scope holds all an owner does.
      const everything = await keyWith(...SCOPES);
      expect(expectData(await t.request('PATCH', `/v1/users/${made.id}`, { key: everything, body: { role: 'owner' } }), User).role).toBe('owner');
      expect(expectData(await create(t.secretKey, 'owner'), UserWithSetupUrl, 201).role).toBe('owner');
      expect(expectData(await as(owner, 'POST', '/v1/users', { email: 'boss@test-tours.example', name: 'Boss', role: 'owner' }), UserWithSetupUrl, 201).role).toBe('owner');
      // Demoting to staff takes the staff scopes only.
      expect(expectData(await t.request('PATCH', `/v1/users/${made.id}`, { key: staffAndUsers, body: { role: 'staff' } }), User).role).toBe('staff');
    });
  });

  describe('sessions end at once', () => {
    let staffId: string;
    let staff: TestSession;
    beforeEach(async () => {
      const user = await addUser(t, { role: 'staff', email: 'staff@test-tours.example' });
      staffId = user.id;
      staff = await signIn(t, user.email);
      expectData(await t.request('GET', '/dashboard/api/session', { key: null, headers: staff.headers }), Session);
    });
    const staffCanWork = async () => (await as(staff, 'GET', '/v1/bookings')).status;

    it('when the user is disabled', async () => {
      expectData(await as(owner, 'PATCH', `/v1/users/${staffId}`, { disabled: true }), User);
      expectError(await as(staff, 'GET', '/v1/bookings'), 401, 'UNAUTHORIZED');
      expectError(await t.request('GET', '/dashboard/api/session', { key: null, headers: staff.headers }), 401, 'UNAUTHORIZED');
      // Enabling them again does not bring the old session back.
      expectData(await as(owner, 'PATCH', `/v1/users/${staffId}`, { disabled: false }), User);
      expect(await staffCanWork()).toBe(401);
    });

    it('when the user is deleted', async () => {
      expectData(await as(owner, 'DELETE', `/v1/users/${staffId}`), Deleted);
      expect(await staffCanWork()).toBe(401);
    });

    it('when the user is reset', async () => {
      await resetUser(t.store, CLI, 'STAFF@test-tours.example', t.config.publicUrl, clock.now());
      expect(await staffCanWork()).toBe(401);
      // The old password no longer works either.
      expectError(await t.request('POST', '/dashboard/api/session', { key: null, body: { email: 'staff@test-tours.example', password: 'a long enough test password' } }), 401, 'INVALID_CREDENTIALS');
      expect((await activity())[0]).toMatchObject({ action: 'user.reset', targetId: staffId, actorType: 'cli' });
    });
  });
});
