import { hashPassword } from '../domain/passwords.js';
import { COMMAND_LINE, createUser } from '../services/users.js';
import type { TestApp, TestResponse } from './app.js';
import type { Role } from '../../shared/index.js';

/** A password every test user may share: hashing costs about a second, so it is hashed once per file. */
export const TEST_PASSWORD = 'a long enough test password';
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/** A user of the test org (or `orgId`) who already has a password, as after following a setup link. */
export async function addUser(
  t: TestApp,
  options: { email?: string; name?: string; role?: Role; password?: string; orgId?: string } = {},
): Promise<TestUser> {
  const password = options.password ?? TEST_PASSWORD;
  const email = options.email ?? `user-${Math.random().toString(36).slice(2, 10)}@test-tours.example`;
  const { user } = await createUser(
    t.store,
    options.orgId ?? t.orgId,
    COMMAND_LINE,
    { email, name: options.name ?? 'Test User', role: options.role ?? 'owner', passwordHash: await hashOnce(password) },
    t.config.publicUrl,
    Date.now(),
  );
  return { id: user.id, email, password };
}

/** The `name=value` the response sets for `name`, and its attributes, or undefined. */
export function setCookieOf(res: TestResponse, name = 'outing_session'): { value: string; attributes: string } | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq) === name) return { value: pair.slice(eq + 1), attributes: attributes.join('; ') };
  }
  return undefined;
}

export interface TestSession {
  res: TestResponse;
  /** The session token (the cookie's value). */
  token: string;
  csrfToken: string;
  /** Headers of a `/v1` request made with the cookie and the CSRF token, and no key. */
  headers: Record<string, string>;
}

/** Signs in through `POST /dashboard/api/session`; throws unless it succeeded. */
export async function signIn(t: TestApp, email: string, password = TEST_PASSWORD): Promise<TestSession> {
  const res = await t.request('POST', '/dashboard/api/session', { key: null, body: { email, password } });
  return sessionFrom(res);
}

export function sessionFrom(res: TestResponse): TestSession {
  const cookie = setCookieOf(res);
  if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  const csrfToken = (res.body as { data: { csrfToken: string } }).data.csrfToken;
  return { res, token: cookie.value, csrfToken, headers: { cookie: `outing_session=${cookie.value}`, 'x-csrf-token': csrfToken } };
}
