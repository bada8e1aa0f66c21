import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import type { SessionRow, UserRow } from './users.js';
import { openTestStore, testEngine } from '../test-helpers/index.js';
import { REFUSALS } from '../test-helpers/engines.js';

/** What a write broken by this kind of constraint rejects with, on the engine under test. */
const refusal = (why: keyof typeof REFUSALS) => ({
  code: testEngine() === 'sqlite' ? expect.stringMatching(REFUSALS[why].sqlite) : REFUSALS[why].pg,
});

const hash = (token: string) => createHash('sha256').update(token).digest();

const user = (id: string, email: string, createdAt: number, more: Partial<UserRow> = {}): UserRow => ({
  id, orgId: 'org_a', email, name: id, role: 'staff', passwordHash: null, createdAt, lastSignInAt: null, disabledAt: null, ...more,
});
const session = (id: string, userId: string, createdAt: number, lastSeenAt = createdAt): SessionRow => ({
  id, tokenHash: hash(id), userId, csrfToken: `csrf-${id}`, createdAt, lastSeenAt,
});

describe(`user store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    for (const id of ['org_a', 'org_b']) {
      await store.organizations.insertOrganization({
        id, name: id, email: `${id}@example.com`, phone: null, timezone: 'Europe/Paris', currency: 'EUR', onlinePayments: 0,
        cancellationCutoffHours: 24, guestSelfService: 1, createdAt: 1, updatedAt: 1,
      });
    }
  });
  afterEach(async () => {
    await opened.close();
  });

  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  it('keeps users: by id, by e-mail whatever its case, listed oldest first with id breaking ties', async () => {
    await store.users.insertUser(user('usr_b', ' Bea@Example.COM ', 100, { role: 'owner', passwordHash: 'scrypt$1$2$3$s$h' }));
    await store.users.insertUser(user('usr_a', 'ann@example.com', 100));
    await store.users.insertUser(user('usr_C', 'cy@example.com', 50, { lastSignInAt: 7, disabledAt: 8 }));
    await store.users.insertUser(user('usr_o', 'o@example.com', 1, { orgId: 'org_b', role: 'owner' }));
    expect(ids(await store.users.listUsers('org_a'))).toEqual(['usr_C', 'usr_a', 'usr_b']);
    expect(await store.users.listUsers('org_b')).toStrictEqual([user('usr_o', 'o@example.com', 1, { orgId: 'org_b', role: 'owner' })]);
    expect(await store.users.listUsers('org_none')).toEqual([]);
    // The address is kept as given; the row's keys come in the order of the JSON written from it.
    const bea = await store.users.getUser('usr_b');
    expect(bea).toStrictEqual({
      id: 'usr_b', orgId: 'org_a', email: ' Bea@Example.COM ', name: 'usr_b', role: 'owner', passwordHash: 'scrypt$1$2$3$s$h',
      createdAt: 100, lastSignInAt: null, disabledAt: null,
    });
    expect(Object.keys(bea!)).toEqual(['id', 'orgId', 'email', 'name', 'role', 'passwordHash', 'createdAt', 'lastSignInAt', 'disabledAt']);
    expect(await store.users.getUser('usr_C')).toStrictEqual(user('usr_C', 'cy@example.com', 50, { lastSignInAt: 7, disabledAt: 8 }));
    expect(await store.users.getUser('usr_c')).toBeUndefined();
    expect(await store.users.getUser('usr_none')).toBeUndefined();
    expect((await store.users.getUserByEmail('bea@example.com'))?.id).toBe('usr_b');
    expect((await store.users.getUserByEmail('  ANN@EXAMPLE.com'))?.id).toBe('usr_a');
    expect(await store.users.getUserByEmail('nobody@example.com')).toBeUndefined();
  });

  it('refuses a second user with the same e-mail in any case or org, a second id, and a user of no org', async () => {
    await store.users.insertUser(user('usr_a', 'ann@example.com', 1));
    await expect(store.users.insertUser(user('usr_b', 'ANN@example.com ', 2))).rejects.toMatchObject(refusal('unique'));
    await expect(store.users.insertUser(user('usr_b', 'ann@example.com', 2, { orgId: 'org_b' }))).rejects.toMatchObject(refusal('unique'));
    await expect(store.users.insertUser(user('usr_a', 'other@example.com', 2))).rejects.toMatchObject(refusal('unique'));
    await expect(store.users.insertUser(user('usr_x', 'x@example.com', 2, { orgId: 'org_none' }))).rejects.toMatchObject(refusal('foreignKey'));
    expect(ids(await store.users.listUsers('org_a'))).toEqual(['usr_a']);
    expect(await store.users.listUsers('org_b')).toEqual([]);
  });

  it('counts active owners, and follows changes of role, password, sign-in and disabling', async () => {
    await store.users.insertUser(user('usr_a', 'a@example.com', 1, { role: 'owner' }));
    await store.users.insertUser(user('usr_b', 'b@example.com', 2, { role: 'owner', disabledAt: 5 }));
    await store.users.insertUser(user('usr_c', 'c@example.com', 3));
    await store.users.insertUser(user('usr_d', 'd@example.com', 4, { orgId: 'org_b', role: 'owner' }));
    expect(await store.users.countActiveOwners('org_a')).toBe(1);
    await store.users.updateUser({ id: 'usr_c', name: 'Cy', role: 'owner', disabledAt: null });
    await store.users.updateUser({ id: 'usr_b', name: 'Bea', role: 'owner', disabledAt: null });
    expect(await store.users.countActiveOwners('org_a')).toBe(3);
    await store.users.updateUser({ id: 'usr_a', name: 'Ann', role: 'staff', disabledAt: 9 });
    expect(await store.users.countActiveOwners('org_a')).toBe(2);
    expect(await store.users.countActiveOwners('org_b')).toBe(1);
    expect(await store.users.countActiveOwners('org_none')).toBe(0);
    await store.users.setUserPassword('usr_a', 'scrypt$16384$8$1$salt$hash');
    await store.users.recordSignIn('usr_a', 1_700_000_000_000);
    expect(await store.users.getUser('usr_a')).toStrictEqual(
      user('usr_a', 'a@example.com', 1, { name: 'Ann', role: 'staff', disabledAt: 9, passwordHash: 'scrypt$16384$8$1$salt$hash', lastSignInAt: 1_700_000_000_000 }),
    );
    await store.users.setUserPassword('usr_a', null);
    expect((await store.users.getUser('usr_a'))?.passwordHash).toBeNull();
    await store.users.updateUser({ id: 'usr_none', name: 'Nobody', role: 'staff', disabledAt: null });
    expect(await store.users.getUser('usr_none')).toBeUndefined();
    await store.users.deleteUser('usr_b');
    await store.users.deleteUser('usr_none');
    expect(ids(await store.users.listUsers('org_a'))).toEqual(['usr_a', 'usr_c']);
    expect(await store.users.countActiveOwners('org_a')).toBe(1);
  });

  it('keeps setup links by the hash of their token, until followed, replaced or expired', async () => {
    await store.users.insertUser(user('usr_a', 'a@example.com', 1));
    await store.users.insertUser(user('usr_b', 'b@example.com', 2));
    await store.users.insertSetupToken(hash('t1'), 'usr_a', 100);
    await store.users.insertSetupToken(hash('t2'), 'usr_a', 200);
    await store.users.insertSetupToken(hash('t3'), 'usr_b', 300);
    const t1 = await store.users.getSetupToken(hash('t1'));
    expect(t1).toStrictEqual({ tokenHash: hash('t1'), userId: 'usr_a', expiresAt: 100 });
    expect(Buffer.isBuffer(t1?.tokenHash)).toBe(true);
    expect(await store.users.getSetupToken(hash('nope'))).toBeUndefined();
    await expect(store.users.insertSetupToken(hash('t1'), 'usr_b', 400)).rejects.toMatchObject(refusal('unique'));
    await expect(store.users.insertSetupToken(hash('t4'), 'usr_none', 400)).rejects.toMatchObject(refusal('foreignKey'));
    // A link is used once: the second delete finds nothing.
    expect(await store.users.deleteSetupToken(hash('t2'))).toBe(1);
    expect(await store.users.deleteSetupToken(hash('t2'))).toBe(0);
    await store.users.insertSetupToken(hash('t5'), 'usr_b', 500);
    expect(await store.users.deleteExpiredSetupTokens(99)).toBe(0);
    expect(await store.users.deleteExpiredSetupTokens(300)).toBe(2); // t1 and t3: expiresAt <= now
    expect(await store.users.getSetupToken(hash('t5'))).toStrictEqual({ tokenHash: hash('t5'), userId: 'usr_b', expiresAt: 500 });
    await store.users.deleteSetupTokensOf('usr_b');
    expect(await store.users.getSetupToken(hash('t5'))).toBeUndefined();
    // Deleting a user takes its links along.
    await store.users.insertSetupToken(hash('t6'), 'usr_a', 600);
    await store.users.deleteUser('usr_a');
    expect(await store.users.getSetupToken(hash('t6'))).toBeUndefined();
  });

  it('keeps sessions by id and by the hash of their token; ends them one, all of a user, or the stale', async () => {
    await store.users.insertUser(user('usr_a', 'a@example.com', 1));
    await store.users.insertUser(user('usr_b', 'b@example.com', 2));
    await store.users.insertSession(session('ses_1', 'usr_a', 100));
    await store.users.insertSession(session('ses_2', 'usr_a', 200, 900));
    await store.users.insertSession(session('ses_3', 'usr_b', 300));
    await store.users.insertSession(session('ses_4', 'usr_b', 400, 1000));
    await store.users.insertSession(session('ses_5', 'usr_b', 500, 1000));
    const two = await store.users.getSessionByHash(hash('ses_2'));
    expect(two).toStrictEqual({ id: 'ses_2', tokenHash: hash('ses_2'), userId: 'usr_a', csrfToken: 'csrf-ses_2', createdAt: 200, lastSeenAt: 900 });
    expect(Object.keys(two!)).toEqual(['id', 'tokenHash', 'userId', 'csrfToken', 'createdAt', 'lastSeenAt']);
    expect(await store.users.getSession('ses_1')).toStrictEqual(session('ses_1', 'usr_a', 100));
    expect(await store.users.getSession('ses_none')).toBeUndefined();
    expect(await store.users.getSessionByHash(hash('none'))).toBeUndefined();
    await expect(store.users.insertSession({ ...session('ses_6', 'usr_a', 1), tokenHash: hash('ses_1') })).rejects.toMatchObject(refusal('unique'));
    await expect(store.users.insertSession(session('ses_1', 'usr_a', 1))).rejects.toMatchObject(refusal('unique'));
    await expect(store.users.insertSession(session('ses_7', 'usr_none', 1))).rejects.toMatchObject(refusal('foreignKey'));
    await store.users.touchSession('ses_1', 950);
    await store.users.touchSession('ses_none', 950);
    expect(await store.users.getSession('ses_1')).toStrictEqual(session('ses_1', 'usr_a', 100, 950));
    await store.users.deleteSession('ses_3');
    expect(await store.users.getSession('ses_3')).toBeUndefined();
    // Both bounds included: ses_2 last seen at 900; then ses_1 and ses_4, begun at 100 and 400.
    expect(await store.users.deleteStaleSessions(900, 99)).toBe(1);
    expect(await store.users.getSession('ses_2')).toBeUndefined();
    expect(await store.users.deleteStaleSessions(0, 400)).toBe(2);
    expect(await store.users.deleteStaleSessions(0, 0)).toBe(0);
    expect(await store.users.getSession('ses_5')).toStrictEqual(session('ses_5', 'usr_b', 500, 1000));
    await store.users.insertSession(session('ses_8', 'usr_b', 600));
    await store.users.deleteSessionsOf('usr_b');
    expect(await store.users.getSession('ses_5')).toBeUndefined();
    expect(await store.users.getSession('ses_8')).toBeUndefined();
    // Deleting a user ends its sessions.
    await store.users.insertSession(session('ses_9', 'usr_a', 700));
    await store.users.deleteUser('usr_a');
    expect(await store.users.getSessionByHash(hash('ses_9'))).toBeUndefined();
  });

  it('counts failed sign-ins per e-mail whatever its case: the n-th newest after a moment, ties included', async () => {
    for (const at of [100, 200, 200, 300, 400]) await store.users.recordSignInFailure('Ann@Example.com', at);
    await store.users.recordSignInFailure('bob@example.com', 350);
    // since → the 1st…6th newest failure strictly after it.
    const expected: [number, (number | undefined)[]][] = [
      [0, [400, 300, 200, 200, 100, undefined]],
      [100, [400, 300, 200, 200, undefined, undefined]],
      [199, [400, 300, 200, 200, undefined, undefined]],
      [200, [400, 300, undefined, undefined, undefined, undefined]],
      [399, [400, undefined, undefined, undefined, undefined, undefined]],
      [400, [undefined, undefined, undefined, undefined, undefined, undefined]],
    ];
    for (const [since, answers] of expected) {
      const found: (number | undefined)[] = [];
      for (let n = 1; n <= 6; n++) found.push(await store.users.nthSignInFailure(' ann@example.COM', since, n));
      expect({ since, found }).toStrictEqual({ since, found: answers });
    }
    expect(await store.users.nthSignInFailure('nobody@example.com', 0, 1)).toBeUndefined();
    expect(await store.users.deleteSignInFailuresBefore(200)).toBe(3); // at <= 200
    expect(await store.users.deleteSignInFailuresBefore(200)).toBe(0);
    expect(await store.users.nthSignInFailure('ann@example.com', 0, 2)).toBe(300);
    expect(await store.users.nthSignInFailure('ann@example.com', 0, 3)).toBeUndefined();
    await store.users.clearSignInFailures('ANN@example.com');
    expect(await store.users.nthSignInFailure('ann@example.com', 0, 1)).toBeUndefined();
    expect(await store.users.nthSignInFailure('bob@example.com', 0, 1)).toBe(350);
  });

  it('holds attempts sent at once to the allowance when each counts itself in a transaction (the write lock)', async () => {
    // services/sessions.ts: read the n-th failure, then refuse or record one, in one transaction.
    const allowed = 5;
    const attempt = (): Promise<boolean> =>
      store.transaction(async () => {
        if ((await store.users.nthSignInFailure('ann@example.com', 0, allowed)) !== undefined) return false;
        await store.users.recordSignInFailure('ann@example.com', 1000);
        return true;
      });
    const results = await Promise.all(Array.from({ length: 20 }, attempt));
    expect(results.filter(Boolean)).toHaveLength(allowed);
    expect(await store.users.nthSignInFailure('ann@example.com', 0, allowed)).toBe(1000);
    expect(await store.users.nthSignInFailure('ann@example.com', 0, allowed + 1)).toBeUndefined();
  });
});
