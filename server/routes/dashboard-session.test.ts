import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectData, expectError, expectList, expectValidationError, manualClock, type ManualClock, type TestApp } from '../test-helpers/index.js';
import { TEST_PASSWORD, addUser, sessionFrom, setCookieOf, signIn } from '../test-helpers/accounts.js';
import { COMMAND_LINE, createUser, resetUser } from '../services/users.js';
import { SIGN_IN_ATTEMPTS_PER_ADDRESS, signInAddressKey } from '../services/sessions.js';
import { PASSWORD_HASHING, passwordHashing } from '../domain/passwords.js';
import { CLI } from '../domain/actor.js';
import { Experience, Organization, Session, SignedOut } from '../../shared/index.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

// Sign-ins hash for about a second each on purpose: a loaded machine needs more than the default time.
describe('dashboard sessions', { timeout: 120_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock(Date.UTC(2026, 5, 1, 9, 0, 0));
    t = await createTestApp({ now: clock.now });
  });
  afterEach(() => t.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.request('POST', `/dashboard/api${path}`, { key: null, body, headers });
  const getSession = (token?: string) =>
    t.request('GET', '/dashboard/api/session', { key: null, headers: token ? { cookie: `outing_session=${token}` } : {} });

  describe('signing in', () => {
    it('sets an HttpOnly, SameSite=Strict cookie and answers the user, the organization and a CSRF token', async () => {
      const user = await addUser(t, { email: 'Rita@Test-Tours.example', name: 'Rita', role: 'staff' });
      const res = await post('/session', { email: 'rita@test-tours.example', password: TEST_PASSWORD });
      const body = expectData(res, Session);
      expect(body.user).toEqual({
        id: user.id,
        email: 'Rita@Test-Tours.example',
        name: 'Rita',
        role: 'staff',
        createdAt: expect.any(String),
        lastSignInAt: '2026-06-01T09:00:00.000Z',
        disabledAt: null,
      });
      expect(body.organization).toEqual({ id: t.orgId, name: 'Test Tours' });
      expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const cookie = setCookieOf(res);
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie?.attributes).toMatch(/HttpOnly/);
      expect(cookie?.attributes).toMatch(/SameSite=Strict/);
      expect(cookie?.attributes).toMatch(/Path=\//);
      // PUBLIC_URL is http here.
      expect(cookie?.attributes).not.toMatch(/Secure/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();

      // GET answers the same body while the session lives.
      expect(expectData(await getSession(cookie?.value), Session)).toEqual(body);
    });

    it('marks the cookie Secure when PUBLIC_URL is https', async () => {
      const secure = await createTestApp({ env: { PUBLIC_URL: 'https://outing.example.com' } });
      try {
        const user = await addUser(secure);
        const res = await secure.request('POST', '/dashboard/api/session', { key: null, body: { email: user.email, password: TEST_PASSWORD } });
        expect(setCookieOf(res)?.attributes).toMatch(/Secure/);
      } finally {
        await secure.close();
      }
    });

    it('answers a wrong password, an unknown e-mail and a disabled user alike: 401 INVALID_CREDENTIALS', async () => {
      const user = await addUser(t);
      const disabled = await addUser(t, { role: 'staff' });
      await t.store.users.updateUser({ ...(await t.store.users.getUser(disabled.id))!, disabledAt: clock.now() });
      const wrong = expectError(await post('/session', { email: user.email, password: 'not the password' }), 401, 'INVALID_CREDENTIALS');
      const unknown = expectError(await post('/session', { email: 'nobody@test-tours.example', password: TEST_PASSWORD }), 401, 'INVALID_CREDENTIALS');
      const off = expectError(await post('/session', { email: disabled.email, password: TEST_PASSWORD }), 401, 'INVALID_CREDENTIALS');
      expect(unknown.message).toBe(wrong.message);
      expect(off.message).toBe(wrong.message);
    });

    it('refuses a user who never set a password', async () => {
      const { user } = await createUser(t.store, t.orgId, COMMAND_LINE, { email: 'new@test-tours.example', name: 'New', role: 'staff' }, t.config.publicUrl, clock.now());
      expectError(await post('/session', { email: user.email, password: 'anything at all here' }), 401, 'INVALID_CREDENTIALS');
    });

    it('validates the body like /v1 does', async () => {
      expectValidationError(await post('/session', { email: 'not an e-mail', password: 'x' }), 'email');
      expectValidationError(await post('/session', { email: 'a@b.example' }), 'password');
      expectError(await t.request('POST', '/dashboard/api/session', { key: null, body: '{"email":', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON');
      expectError(await t.request('POST', '/dashboard/api/session', { key: null, body: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('refuses an e-mail after 10 failures in 15 minutes, even with the right password, until the window passes', async () => {
      const user = await addUser(t);
      // Failures are counted in the database: eight recorded as another process would have, two over HTTP.
      for (let i = 0; i < 8; i++) {
        await t.store.users.recordSignInFailure(user.email, clock.now());
        clock.advance(1000);
      }
      for (let i = 0; i < 2; i++) {
        expectError(await post('/session', { email: user.email, password: 'wrong password!' }), 401, 'INVALID_CREDENTIALS');
        clock.advance(1000);
      }
      const limited = await post('/session', { email: user.email.toUpperCase(), password: TEST_PASSWORD });
      expectError(limited, 429, 'RATE_LIMITED');
      // The oldest failure leaves the window 15 minutes after it happened (10 s ago).
      expect(Number(limited.headers.get('retry-after'))).toBe(15 * 60 - 10);
      expect(setCookieOf(limited)).toBeUndefined();
      // Another e-mail is not affected.
      const other = await addUser(t);
      await signIn(t, other.email);

      clock.advance((15 * 60 - 10) * 1000);
      const session = await signIn(t, user.email);
      expect(session.csrfToken).toBeTruthy();
    });

    it('counts attempts still hashing: of 14 at once, 10 are counted and no more than 10 checked', async () => {
      const user = await addUser(t);
      const answers = await Promise.all(
        Array.from({ length: 14 }, () => post('/session', { email: user.email, password: 'a wrong password' })),
      );
      // Some of the ten counted may be refused by the hashing line too (one client's share): never checked beyond ten.
      expect(answers.every((r) => r.status === 401 || r.status === 429)).toBe(true);
      expect(answers.filter((r) => r.status === 401).length).toBeLessThanOrEqual(10);
      expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(4);
      expect(await t.store.users.nthSignInFailure(user.email, 0, 10)).toBeDefined();
      expect(await t.store.users.nthSignInFailure(user.email, 0, 11)).toBeUndefined();
    });

    describe('under a flood', () => {
      let open: TestApp;
      beforeEach(async () => {
        open = await createTestApp({ now: clock.now, env: { TRUST_PROXY: 'true' } });
      });
      afterEach(() => open.close());
      const from = (ip: string, body: unknown) => open.request('POST', '/dashboard/api/session', { key: null, body, headers: { 'x-forwarded-for': ip } });

      it('a correct sign-in succeeds while 40 bogus ones at once are shed with 429 RATE_LIMITED and Retry-After', async () => {
        const user = await addUser(open);
        const flood = Array.from({ length: 40 }, (_, i) => from('203.0.113.66', { email: `nobody-${i}@test-tours.example`, password: 'guessing, guessing' }));
        const mine = from('198.51.100.7', { email: user.email, password: TEST_PASSWORD });
        const [answers, signedIn] = await Promise.all([Promise.all(flood), mine]);
        expect(expectData(signedIn, Session).user.id).toBe(user.id);
        expect(answers.every((r) => r.status === 401 || r.status === 429)).toBe(true);
        const shed = answers.filter((r) => r.status === 429);
        // One address may hold a few places in the line and try 30 times in 15 minutes: most of the flood never hashes.
        expect(shed.length).toBeGreaterThanOrEqual(10);
        for (const r of shed) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(answers.filter((r) => r.status === 401).length).toBeLessThan(SIGN_IN_ATTEMPTS_PER_ADDRESS);
      });

      it('limits attempts per client address to 30 in 15 minutes, counted in the database, successes included', async () => {
        const user = await addUser(open);
        const other = await addUser(open);
        const address = '203.0.113.9';
        // 28 attempts counted as another process would have, each for another e-mail: no e-mail is locked.
        for (let i = 0; i < 28; i++) {
          await open.store.users.recordSignInFailure(signInAddressKey(address), clock.now());
          clock.advance(1000);
        }
        expectError(await from(address, { email: 'nobody@test-tours.example', password: 'a wrong password' }), 401, 'INVALID_CREDENTIALS');
        clock.advance(1000);
        sessionFrom(await from(address, { email: user.email, password: TEST_PASSWORD }));
        clock.advance(1000);
        // The 31st, right password or not, waits until the oldest attempt leaves the window (30 s ago).
        const limited = await from(address, { email: other.email, password: TEST_PASSWORD });
        expect(expectError(limited, 429, 'RATE_LIMITED').message).toMatch(/from your network/);
        expect(Number(limited.headers.get('retry-after'))).toBe(15 * 60 - 30);
        expect(setCookieOf(limited)).toBeUndefined();
        // The e-mail itself is not locked: from elsewhere it signs in.
        sessionFrom(await from('198.51.100.20', { email: other.email, password: TEST_PASSWORD }));
        clock.advance((15 * 60 - 30) * 1000);
        sessionFrom(await from(address, { email: other.email, password: TEST_PASSWORD }));
      });

      it('counts an IPv6 client by its /64', async () => {
        const user = await addUser(open);
        for (let i = 0; i < 30; i++) await open.store.users.recordSignInFailure(signInAddressKey('2001:db8:5:6::1'), clock.now());
        expectError(await from('2001:db8:5:6:ffff:1:2:3', { email: user.email, password: TEST_PASSWORD }), 429, 'RATE_LIMITED');
        sessionFrom(await from('2001:db8:5:7::1', { email: user.email, password: TEST_PASSWORD }));
      });
    });

    it('takes turns to hash: while the client’s share of the line is taken, sign-in and setting a password answer 429 with Retry-After', async () => {
      const user = await addUser(t);
      const { setupUrl } = await createUser(t.store, t.orgId, COMMAND_LINE, { email: 'fresh@test-tours.example', name: 'Fresh', role: 'staff' }, t.config.publicUrl, clock.now());
      const token = setupUrl?.split('#')[1] ?? '';
      // app.request() has no socket: every request here comes from the address "unknown".
      let release: () => void = () => {};
      const busy = new Promise<void>((resolve) => (release = resolve));
      const holding = Array.from({ length: PASSWORD_HASHING.perClient }, () => passwordHashing.run(signInAddressKey('unknown'), () => busy));
      try {
        const signingIn = await post('/session', { email: user.email, password: TEST_PASSWORD });
        expectError(signingIn, 429, 'RATE_LIMITED');
        expect(Number(signingIn.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        const settingUp = await post('/setup', { token, password: 'a brand new password' });
        expectError(settingUp, 429, 'RATE_LIMITED');
        expect(Number(settingUp.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      } finally {
        release();
        await Promise.all(holding);
      }
      // Nothing was used up: the link and the password work once the line is free.
      expectData(await post('/setup', { token, password: 'a brand new password' }), Session);
      await signIn(t, user.email);
    });

    it('limits requests per client address with PUBLIC_REQUESTS_PER_MINUTE', async () => {
      const limited = await createTestApp({ env: { PUBLIC_REQUESTS_PER_MINUTE: '2' } });
      try {
        const headers = { 'x-forwarded-for': '203.0.113.9' };
        for (let i = 0; i < 2; i++) expectError(await limited.request('GET', '/dashboard/api/session', { key: null, headers }), 401, 'UNAUTHORIZED');
        const res = await limited.request('GET', '/dashboard/api/session', { key: null, headers });
        expectError(res, 429, 'RATE_LIMITED');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      } finally {
        await limited.close();
      }
    });
  });

  describe('setup links', () => {
    const setupToken = (url: string) => {
      expect(url).toMatch(/^http:\/\/localhost:\d+\/dashboard\/setup#[A-Za-z0-9_-]{43}$/);
      return url.split('#')[1] ?? '';
    };
    const newUser = async (email = 'guide@test-tours.example') =>
      await createUser(t.store, t.orgId, COMMAND_LINE, { email, name: 'Guide', role: 'staff' }, t.config.publicUrl, clock.now());

    it('sets the password and signs in once; a replay is 400 INVALID_TOKEN', async () => {
      const { user, setupUrl } = await newUser();
      const token = setupToken(setupUrl ?? '');
      const res = await post('/setup', { token, password: 'a brand new password' });
      const body = expectData(res, Session);
      expect(body.user.id).toBe(user.id);
      expect(setCookieOf(res)?.attributes).toMatch(/HttpOnly/);
      expectError(await post('/setup', { token, password: 'another new password' }), 400, 'INVALID_TOKEN');
      // The password chosen first is the one that works.
      await signIn(t, user.email, 'a brand new password');
      expectError(await post('/session', { email: user.email, password: 'another new password' }), 401, 'INVALID_CREDENTIALS');
    });

    it('expires after 72 hours', async () => {
      const token = setupToken((await newUser()).setupUrl ?? '');
      clock.advance(72 * HOUR);
      expectError(await post('/setup', { token, password: 'a brand new password' }), 400, 'INVALID_TOKEN');
    });

    it('works until just before 72 hours', async () => {
      const token = setupToken((await newUser()).setupUrl ?? '');
      clock.advance(72 * HOUR - 1000);
      expectData(await post('/setup', { token, password: 'a brand new password' }), Session);
    });

    it('refuses an unknown token', async () => {
      expectError(await post('/setup', { token: 'x'.repeat(43), password: 'a brand new password' }), 400, 'INVALID_TOKEN');
    });

    it('refuses a weak password on `password` and leaves the link usable', async () => {
      const token = setupToken((await newUser('Guide@Test-Tours.example')).setupUrl ?? '');
      expectValidationError(await post('/setup', { token, password: 'short' }), 'password');
      expectValidationError(await post('/setup', { token, password: 'x'.repeat(201) }), 'password');
      expectValidationError(await post('/setup', { token, password: 'guide@test-tours.EXAMPLE' }), 'password');
      expectData(await post('/setup', { token, password: 'x'.repeat(200) }), Session);
    });

    it('a reset makes the earlier link worthless', async () => {
      const { user, setupUrl } = await newUser();
      const first = setupToken(setupUrl ?? '');
      const second = setupToken((await resetUser(t.store, CLI, user.email, t.config.publicUrl, clock.now())).setupUrl);
      expectError(await post('/setup', { token: first, password: 'a brand new password' }), 400, 'INVALID_TOKEN');
      expectData(await post('/setup', { token: second, password: 'a brand new password' }), Session);
    });
  });

  describe('a session', () => {
    it('ends after 12 hours unused', async () => {
      const user = await addUser(t);
      const { token } = await signIn(t, user.email);
      clock.advance(12 * HOUR - 1000);
      expectData(await getSession(token), Session);
      // Used a moment ago: another 12 hours from now.
      clock.advance(12 * HOUR - 1000);
      expectData(await getSession(token), Session);
      clock.advance(12 * HOUR);
      expectError(await getSession(token), 401, 'UNAUTHORIZED');
    });

    it('ends after 7 days however busy', async () => {
      const user = await addUser(t);
      const session = await signIn(t, user.email);
      for (let elapsed = 0; elapsed < 7 * DAY - HOUR; elapsed += 6 * HOUR) {
        expectList(await t.request('GET', '/v1/experiences', { key: null, headers: session.headers }), Experience);
        clock.advance(6 * HOUR);
      }
      clock.set(Date.UTC(2026, 5, 8, 9, 0, 0));
      expectError(await getSession(session.token), 401, 'UNAUTHORIZED');
      expectError(await t.request('GET', '/v1/experiences', { key: null, headers: session.headers }), 401, 'UNAUTHORIZED');
    });

    it('signing out deletes it on the server and clears the cookie', async () => {
      const user = await addUser(t);
      const { token } = await signIn(t, user.email);
      const res = await t.request('DELETE', '/dashboard/api/session', { key: null, headers: { cookie: `outing_session=${token}` } });
      expect(expectData(res, SignedOut)).toEqual({ signedOut: true });
      expect(setCookieOf(res)).toMatchObject({ value: '' });
      expect(setCookieOf(res)?.attributes).toMatch(/Max-Age=0/);
      // The token itself is dead, not just forgotten by the browser.
      expectError(await getSession(token), 401, 'UNAUTHORIZED');
    });

    it('is 401 without a cookie, or with a made-up one', async () => {
      expectError(await getSession(), 401, 'UNAUTHORIZED');
      expectError(await getSession('A'.repeat(43)), 401, 'UNAUTHORIZED');
      expectError(await t.request('DELETE', '/dashboard/api/session', { key: null }), 401, 'UNAUTHORIZED');
    });

    it('stores only hashes: the database holds neither the session token nor the password', async () => {
      const user = await addUser(t);
      const { token } = await signIn(t, user.email);
      const row = (await t.store.users.getUser(user.id))!;
      expect(row.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
      expect(row.passwordHash).not.toContain(TEST_PASSWORD);
      const { createHash } = await import('node:crypto');
      expect(await t.store.users.getSessionByHash(createHash('sha256').update(token).digest())).toBeDefined();
      expect(await t.store.users.getSessionByHash(Buffer.from(token))).toBeUndefined();
    });
  });

  it('keeps passwords, tokens and hashes out of the logs and out of every answer', async () => {
    const { user, setupUrl } = await createUser(t.store, t.orgId, COMMAND_LINE, { email: 'new@test-tours.example', name: 'New', role: 'owner' }, t.config.publicUrl, clock.now());
    const setupToken = setupUrl?.split('#')[1] ?? '';
    const password = 'my secret password 42';
    const answers: string[] = [];
    const setup = await post('/setup', { token: setupToken, password });
    answers.push(setup.text);
    const session = sessionFrom(setup);
    answers.push((await post('/session', { email: user.email, password: 'wrong guess here' })).text);
    const again = await post('/session', { email: user.email, password });
    answers.push(again.text);
    answers.push((await t.request('GET', '/dashboard/api/session', { key: null, headers: session.headers })).text);
    answers.push((await t.request('GET', '/v1/users', { key: null, headers: session.headers })).text);
    answers.push((await t.request('POST', '/v1/users', { key: null, headers: session.headers, body: { email: 'b@test-tours.example', name: 'B', role: 'staff' } })).text);
    const hash = (await t.store.users.getUser(user.id))!.passwordHash!;
    const secrets = [password, setupToken, session.token, setCookieOf(again)!.value, hash, hash.split('$')[5]!];
    for (const text of [...answers, ...t.logs]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/passwordHash|password_hash/);
    }
    // The request log has the paths, and who made the /v1 requests.
    const lines = t.logEntries().filter((l) => l.msg === 'request');
    expect(lines.map((l) => l.path)).toContain('/dashboard/api/setup');
    expect(lines.find((l) => l.path === '/v1/users')).toMatchObject({ orgId: t.orgId, userId: user.id });
  });

  it('answers /healthz while sign-ins are hashing: the hash runs off the event loop', async () => {
    const user = await addUser(t);
    const { url, close } = await t.listen();
    try {
      const order: string[] = [];
      // As many as one client may have hashing at once.
      const signIns = Array.from({ length: PASSWORD_HASHING.perClient }, (_, i) =>
        fetch(`${url}/dashboard/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: user.email, password: i % 2 ? TEST_PASSWORD : 'a wrong password' }),
        }).then((res) => {
          order.push('sign-in');
          return res.status;
        }),
      );
      // Let the sign-ins reach the hashing first.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const health = await fetch(`${url}/healthz`).then((res) => {
        order.push('healthz');
        return res.status;
      });
      expect(health).toBe(200);
      expect((await Promise.all(signIns)).sort()).toEqual([200, 401, 401]);
      expect(order[0]).toBe('healthz');
    } finally {
      await close();
    }
  });

  it('the OpenAPI document lists the routes under "Dashboard sessions" with a cookie scheme', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json', { key: null })).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/dashboard/api/session', '/dashboard/api/setup']));
    expect(doc.paths['/dashboard/api/session'].post.tags).toEqual(['Dashboard sessions']);
    expect(doc.paths['/dashboard/api/session'].get.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'outing_session' });
    expect(doc.paths['/v1/organization'].get.security).toContainEqual({ sessionCookie: [], csrfToken: [] });
    expect(Organization).toBeDefined();
  });
});

describe('pruning', { timeout: 120_000 }, () => {
  it('forgets ended sessions, lapsed setup links and failures out of their window', async () => {
    const clock = manualClock(Date.UTC(2026, 5, 1, 9, 0, 0));
    const t = await createTestApp({ now: clock.now });
    try {
      const user = await addUser(t);
      const { token } = await signIn(t, user.email);
      await createUser(t.store, t.orgId, COMMAND_LINE, { email: 'later@test-tours.example', name: 'Later', role: 'staff' }, t.config.publicUrl, clock.now());
      await t.store.users.recordSignInFailure('someone@test-tours.example', clock.now());
      const { pruneExpired } = await import('../services/retention.js');
      expect((await pruneExpired({ store: t.store, config: t.config }, clock.now())).accounts).toBe(0);
      // The session, the setup link, the failure, and the sign-in's attempt counted for its address.
      expect((await pruneExpired({ store: t.store, config: t.config }, clock.now() + 73 * HOUR)).accounts).toBe(4);
      expectError(await t.request('GET', '/dashboard/api/session', { key: null, headers: { cookie: `outing_session=${token}` } }), 401, 'UNAUTHORIZED');
    } finally {
      await t.close();
    }
  });
});
