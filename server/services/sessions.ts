import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { newId } from '../domain/ids.js';
import { hashPassword, verifyNothing, verifyPassword } from '../domain/passwords.js';
import { Refusal } from '../domain/refusal.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS, hashSessionToken as hashToken } from '../domain/sessions.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { Store } from '../store/index.js';
import type { SessionRow, UserRow } from '../store/users.js';
import { checkNewPassword, findSetupToken, takeSetupToken } from './users.js';

export { SESSION_IDLE_MS, SESSION_MAX_MS };
/** Failed sign-ins counted per e-mail over this window… */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** …of which this many are let through; the next attempts wait for the oldest to leave the window. */
export const SIGN_IN_FAILURES_ALLOWED = 10;
/**
 * Sign-in attempts let through per client address over the same window, failed or not: enough for
 * a team behind one office router, far too few to try passwords across many e-mails.
 */
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 30;

export interface SignedIn {
  /** The cookie's value: shown to the browser once, stored only as its SHA-256. */
  token: string;
  session: SessionRow;
  user: UserRow;
  organization: OrganizationRow;
}

const invalidCredentials = () => new Refusal('INVALID_CREDENTIALS', 'The e-mail address or the password is wrong');
const invalidToken = () =>
  new Refusal('INVALID_TOKEN', 'This setup link is not valid: it was used already, has expired or never existed. Ask an owner for a new one');

/**
 * Who a sign-in comes from, as its limits count it: the client's address, or for IPv6 its /64 (one
 * home or server gets a whole /64, so single addresses would be free to change). The key holds no
 * `@`, so it never meets an e-mail's count in the table they share.
 */
export function signInAddressKey(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return `address ${bare}`;
  // Eight groups of 16 bits, a trailing dotted IPv4 part turned into the last two.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  const hex = dotted
    ? bare.slice(0, dotted.index) + [[1, 2], [3, 4]].map(([a = 0, b = 0]) => ((Number(dotted[a]) << 8) | Number(dotted[b])).toString(16)).join(':')
    : bare;
  const [head = '', tail] = hex.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right].map((g) => parseInt(g, 16));
  // An IPv4 address written the IPv6 way (::ffff:a.b.c.d) counts as itself.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `address ${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `address ${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

const waitFor = (oldestCounted: number, now: number) => Math.max(1, Math.ceil((oldestCounted + SIGN_IN_WINDOW_MS - now) / 1000));

/**
 * Counts an attempt as a failure before its password is checked, and refuses once the e-mail has
 * used up its failures in the window, whatever the password. Counting first, in one transaction,
 * is what keeps a hundred attempts sent at once (all hashing in parallel) to ten; a success clears
 * the e-mail's count. The client's address is counted beside it and never cleared: a success on
 * one account must not buy more guesses at others.
 */
async function countAttempt(store: Store, email: string, address: string, now: number): Promise<void> {
  await store.transaction(async () => {
    const since = now - SIGN_IN_WINDOW_MS;
    const forEmail = await store.users.nthSignInFailure(email, since, SIGN_IN_FAILURES_ALLOWED);
    if (forEmail !== undefined) {
      const wait = waitFor(forEmail, now);
      throw new Refusal('RATE_LIMITED', `Too many failed sign-ins for this e-mail address; retry in ${wait} s`, undefined, wait);
    }
    const fromAddress = await store.users.nthSignInFailure(address, since, SIGN_IN_ATTEMPTS_PER_ADDRESS);
    if (fromAddress !== undefined) {
      const wait = waitFor(fromAddress, now);
      throw new Refusal('RATE_LIMITED', `Too many sign-ins from your network; retry in ${wait} s`, undefined, wait);
    }
    await store.users.deleteSignInFailuresBefore(since);
    await store.users.recordSignInFailure(email, now);
    await store.users.recordSignInFailure(address, now);
  });
}

async function startSession(store: Store, user: UserRow, now: number): Promise<SignedIn> {
  const token = randomBytes(32).toString('base64url');
  const session: SessionRow = {
    id: newId('session', now),
    tokenHash: hashToken(token),
    userId: user.id,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAt: now,
    lastSeenAt: now,
  };
  await store.users.insertSession(session);
  await store.users.recordSignIn(user.id, now);
  const organization = await store.organizations.getOrganization(user.orgId);
  if (!organization) throw invalidCredentials();
  return { token, session, user: { ...user, lastSignInAt: now }, organization };
}

/**
 * Signs in with an e-mail and password, from the client address `ip`. Unknown e-mail, wrong
 * password and disabled user get the same answer after the same work (a hash is always verified),
 * so the answer tells nobody which addresses have accounts. The hashing runs off the event loop, in
 * the process's bounded line (`RATE_LIMITED` when it is full); `now` is read again after it.
 */
export async function signIn(store: Store, input: { email: string; password: string }, ip: string, now: () => number): Promise<SignedIn> {
  const from = signInAddressKey(ip);
  await countAttempt(store, input.email, from, now());
  const found = await store.users.getUserByEmail(input.email);
  const matches = found?.passwordHash ? await verifyPassword(input.password, found.passwordHash, from) : await verifyNothing(input.password, from);
  const at = now();
  if (!matches || !found || found.disabledAt !== null) throw invalidCredentials();
  return await store.transaction(async () => {
    // The user may have been disabled, deleted or reset while the hash was being checked.
    const user = await store.users.getUser(found.id);
    if (!user || user.disabledAt !== null || user.passwordHash !== found.passwordHash) throw invalidCredentials();
    await store.users.clearSignInFailures(input.email);
    return await startSession(store, user, at);
  });
}

/**
 * Follows a setup link, from the client address `ip`: sets the password, ends the user's other
 * sessions and signs them in. The hash takes its turn in the same line as sign-ins.
 */
export async function completeSetup(store: Store, input: { token: string; password: string }, ip: string, now: () => number): Promise<SignedIn> {
  const link = await findSetupToken(store, input.token, now());
  const user = link && await store.users.getUser(link.userId);
  if (!link || !user || user.disabledAt !== null) throw invalidToken();
  checkNewPassword(user, input.password);
  const passwordHash = await hashPassword(input.password, signInAddressKey(ip));
  const at = now();
  return await store.transaction(async () => {
    // One use: of two requests racing with the same link, the second finds it gone.
    if (!await takeSetupToken(store, link.hash, at)) throw invalidToken();
    const current = await store.users.getUser(user.id);
    if (!current || current.disabledAt !== null) throw invalidToken();
    await store.users.setUserPassword(current.id, passwordHash);
    await store.users.deleteSessionsOf(current.id);
    return await startSession(store, { ...current, passwordHash }, at);
  });
}

/** What the dashboard is told about a live session. */
export async function describeSession(store: Store, live: { session: SessionRow; user: UserRow }): Promise<{ user: UserRow; organization: OrganizationRow; session: SessionRow }> {
  const organization = await store.organizations.getOrganization(live.user.orgId);
  if (!organization) throw new Refusal('UNAUTHORIZED', 'Sign in first');
  return { user: live.user, organization, session: live.session };
}

export async function signOut(store: Store, sessionId: string): Promise<void> {
  await store.users.deleteSession(sessionId);
}

/** Ended sessions, stale setup links and failures out of the window: pruned with the other expired records. */
export async function pruneAccounts(store: Store, now: number): Promise<number> {
  return await store.transaction(
    async () =>
      await store.users.deleteStaleSessions(now - SESSION_IDLE_MS, now - SESSION_MAX_MS) +
      await store.users.deleteExpiredSetupTokens(now) +
      await store.users.deleteSignInFailuresBefore(now - SIGN_IN_WINDOW_MS),
  );
}
