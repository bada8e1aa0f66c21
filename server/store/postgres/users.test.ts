import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Async } from '../index.js';
import type { SessionRow, UserRow, userStore } from '../users.js';
import { bothEngines, type BothEngines } from '../../test-helpers/engines.js';
import { testDatabaseUrl } from '../../test-helpers/postgres.js';
import { userStorePg } from './users.js';

type Users = Async<ReturnType<typeof userStore>>;

const hash = (token: string) => createHash('sha256').update(token).digest();

/**
 * users.ts over PostgreSQL, held to its SQLite twin: the same calls on both engines, the same
 * answers (key order included: it is the order of the JSON the API writes).
 */
describe.skipIf(!testDatabaseUrl())('user store on PostgreSQL', () => {
  let e: BothEngines;
  let pg: Users;
  beforeEach(async () => {
    e = await bothEngines();
    pg = userStorePg(e.pgDb);
    for (const org of ['org_a', 'org_b']) {
      await plant('INSERT INTO organizations (id, name, email, timezone, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        org, org, `${org}@example.com`, 'Europe/Paris', 1, 1,
      ]);
    }
  });
  afterEach(async () => {
    await e.close();
  });

  /** A row this module does not own, written alike on both engines (`$n` in order of the parameters). */
  async function plant(sql: string, params: unknown[]): Promise<void> {
    e.sqliteDb.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
    await e.pgDb.run(sql, params);
  }

  /** Runs `call` on both engines; the answers must be the same, down to the order of the keys. */
  async function same<T>(call: (store: Users) => Promise<T>): Promise<T> {
    const expected = await call(e.sqlite);
    const actual = await call(pg);
    expect(actual).toStrictEqual(expected);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    return expected;
  }

  /** Both engines refuse, for the same kind of reason: SQLite's constraint code and PostgreSQL's SQLSTATE. */
  async function bothRefuse(call: (store: Users) => Promise<unknown>, sqlite: RegExp, postgres: string): Promise<void> {
    const codes: unknown[] = [];
    for (const store of [e.sqlite, pg]) {
      const err = await call(store).then(
        () => undefined,
        (error: unknown) => error,
      );
      codes.push((err as { code?: unknown } | undefined)?.code);
    }
    expect(codes[0]).toMatch(sqlite);
    expect(codes[1]).toBe(postgres);
  }
  const UNIQUE = /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/;
  const FOREIGN_KEY = /^SQLITE_CONSTRAINT_FOREIGNKEY$/;

  const user = (id: string, email: string, createdAt: number, more: Partial<UserRow> = {}): UserRow => ({
    id, orgId: 'org_a', email, name: id, role: 'staff', passwordHash: null, createdAt, lastSignInAt: null, disabledAt: null, ...more,
  });
  const session = (id: string, userId: string, createdAt: number, lastSeenAt = createdAt): SessionRow => ({
    id, tokenHash: hash(id), userId, csrfToken: `csrf-${id}`, createdAt, lastSeenAt,
  });

  it('keeps users: by id, by e-mail whatever its case, listed oldest first with id breaking ties', async () => {
    await same((s) => s.insertUser(user('usr_b', ' Bea@Example.COM ', 100, { role: 'owner', passwordHash: 'scrypt$1$2$3$s$h' })));
    await same((s) => s.insertUser(user('usr_a', 'ann@example.com', 100)));
    await same((s) => s.insertUser(user('usr_C', 'cy@example.com', 50, { lastSignInAt: 7, disabledAt: 8 })));
    await same((s) => s.insertUser(user('usr_o', 'o@example.com', 1, { orgId: 'org_b', role: 'owner' })));
    expect((await same((s) => s.listUsers('org_a'))).map((u) => u.id)).toEqual(['usr_C', 'usr_a', 'usr_b']);
    await same((s) => s.listUsers('org_b'));
    expect(await same((s) => s.listUsers('org_none'))).toEqual([]);
    expect(await same((s) => s.getUser('usr_b'))).toMatchObject({ email: ' Bea@Example.COM ', role: 'owner' });
    await same((s) => s.getUser('usr_C'));
    expect(await same((s) => s.getUser('usr_none'))).toBeUndefined();
    expect((await same((s) => s.getUserByEmail('bea@example.com')))?.id).toBe('usr_b');
    expect((await same((s) => s.getUserByEmail('  ANN@EXAMPLE.com')))?.id).toBe('usr_a');
    expect(await same((s) => s.getUserByEmail('nobody@example.com'))).toBeUndefined();
  });

  it('refuses a second user with the same e-mail in any case, or in any org, and a user of no org', async () => {
    await same((s) => s.insertUser(user('usr_a', 'ann@example.com', 1)));
    await bothRefuse((s) => s.insertUser(user('usr_b', 'ANN@example.com ', 2)), UNIQUE, '23505');
    await bothRefuse((s) => s.insertUser(user('usr_b', 'ann@example.com', 2, { orgId: 'org_b' })), UNIQUE, '23505');
    await bothRefuse((s) => s.insertUser(user('usr_a', 'other@example.com', 2)), UNIQUE, '23505');
    await bothRefuse((s) => s.insertUser(user('usr_x', 'x@example.com', 2, { orgId: 'org_none' })), FOREIGN_KEY, '23503');
    await same((s) => s.listUsers('org_a'));
    await same((s) => s.listUsers('org_b'));
  });

  it('counts active owners, and follows changes of role, password, sign-in and disabling', async () => {
    await same((s) => s.insertUser(user('usr_a', 'a@example.com', 1, { role: 'owner' })));
    await same((s) => s.insertUser(user('usr_b', 'b@example.com', 2, { role: 'owner', disabledAt: 5 })));
    await same((s) => s.insertUser(user('usr_c', 'c@example.com', 3)));
    await same((s) => s.insertUser(user('usr_d', 'd@example.com', 4, { orgId: 'org_b', role: 'owner' })));
    expect(await same((s) => s.countActiveOwners('org_a'))).toBe(1);
    await same((s) => s.updateUser({ id: 'usr_c', name: 'Cy', role: 'owner', disabledAt: null }));
    await same((s) => s.updateUser({ id: 'usr_b', name: 'Bea', role: 'owner', disabledAt: null }));
    expect(await same((s) => s.countActiveOwners('org_a'))).toBe(3);
    await same((s) => s.updateUser({ id: 'usr_a', name: 'Ann', role: 'staff', disabledAt: 9 }));
    expect(await same((s) => s.countActiveOwners('org_a'))).toBe(2);
    expect(await same((s) => s.countActiveOwners('org_none'))).toBe(0);
    await same((s) => s.setUserPassword('usr_a', 'scrypt$16384$8$1$salt$hash'));
    await same((s) => s.recordSignIn('usr_a', 1_700_000_000_000));
    await same((s) => s.getUser('usr_a'));
    await same((s) => s.setUserPassword('usr_a', null));
    await same((s) => s.updateUser({ id: 'usr_none', name: 'Nobody', role: 'staff', disabledAt: null }));
    await same((s) => s.listUsers('org_a'));
    await same((s) => s.deleteUser('usr_b'));
    await same((s) => s.deleteUser('usr_none'));
    await same((s) => s.listUsers('org_a'));
    expect(await same((s) => s.countActiveOwners('org_a'))).toBe(1);
  });

  it('keeps setup links by the hash of their token, until followed, replaced or expired', async () => {
    await same((s) => s.insertUser(user('usr_a', 'a@example.com', 1)));
    await same((s) => s.insertUser(user('usr_b', 'b@example.com', 2)));
    await same((s) => s.insertSetupToken(hash('t1'), 'usr_a', 100));
    await same((s) => s.insertSetupToken(hash('t2'), 'usr_a', 200));
    await same((s) => s.insertSetupToken(hash('t3'), 'usr_b', 300));
    expect(await same((s) => s.getSetupToken(hash('t1')))).toEqual({ tokenHash: hash('t1'), userId: 'usr_a', expiresAt: 100 });
    expect(await same((s) => s.getSetupToken(hash('nope')))).toBeUndefined();
    await bothRefuse((s) => s.insertSetupToken(hash('t1'), 'usr_b', 400), UNIQUE, '23505');
    await bothRefuse((s) => s.insertSetupToken(hash('t4'), 'usr_none', 400), FOREIGN_KEY, '23503');
    expect(await same((s) => s.deleteSetupToken(hash('t2')))).toBe(1);
    expect(await same((s) => s.deleteSetupToken(hash('t2')))).toBe(0);
    await same((s) => s.insertSetupToken(hash('t5'), 'usr_b', 500));
    expect(await same((s) => s.deleteExpiredSetupTokens(99))).toBe(0);
    expect(await same((s) => s.deleteExpiredSetupTokens(300))).toBe(2); // t1 and t3: expiresAt <= now
    await same((s) => s.getSetupToken(hash('t5')));
    await same((s) => s.deleteSetupTokensOf('usr_b'));
    expect(await same((s) => s.getSetupToken(hash('t5')))).toBeUndefined();
    // Deleting a user takes its links along.
    await same((s) => s.insertSetupToken(hash('t6'), 'usr_a', 600));
    await same((s) => s.deleteUser('usr_a'));
    expect(await same((s) => s.getSetupToken(hash('t6')))).toBeUndefined();
  });

  it('keeps sessions by id and by the hash of their token; ends them one, all of a user, or the stale', async () => {
    await same((s) => s.insertUser(user('usr_a', 'a@example.com', 1)));
    await same((s) => s.insertUser(user('usr_b', 'b@example.com', 2)));
    await same((s) => s.insertSession(session('ses_1', 'usr_a', 100)));
    await same((s) => s.insertSession(session('ses_2', 'usr_a', 200, 900)));
    await same((s) => s.insertSession(session('ses_3', 'usr_b', 300)));
    await same((s) => s.insertSession(session('ses_4', 'usr_b', 400, 1000)));
    await same((s) => s.insertSession(session('ses_5', 'usr_b', 500, 1000)));
    expect((await same((s) => s.getSessionByHash(hash('ses_2'))))?.id).toBe('ses_2');
    expect((await same((s) => s.getSession('ses_1')))?.tokenHash).toEqual(hash('ses_1'));
    expect(await same((s) => s.getSession('ses_none'))).toBeUndefined();
    expect(await same((s) => s.getSessionByHash(hash('none')))).toBeUndefined();
    await bothRefuse((s) => s.insertSession({ ...session('ses_6', 'usr_a', 1), tokenHash: hash('ses_1') }), UNIQUE, '23505');
    await bothRefuse((s) => s.insertSession(session('ses_1', 'usr_a', 1)), UNIQUE, '23505');
    await bothRefuse((s) => s.insertSession(session('ses_7', 'usr_none', 1)), FOREIGN_KEY, '23503');
    await same((s) => s.touchSession('ses_1', 950));
    await same((s) => s.touchSession('ses_none', 950));
    await same((s) => s.getSession('ses_1'));
    await same((s) => s.deleteSession('ses_3'));
    expect(await same((s) => s.getSession('ses_3'))).toBeUndefined();
    // Both bounds included: ses_2 last seen at 900; then ses_1 and ses_4, begun at 100 and 400.
    expect(await same((s) => s.deleteStaleSessions(900, 99))).toBe(1);
    expect(await same((s) => s.deleteStaleSessions(0, 400))).toBe(2);
    expect(await same((s) => s.deleteStaleSessions(0, 0))).toBe(0);
    await same((s) => s.getSession('ses_5'));
    await same((s) => s.insertSession(session('ses_8', 'usr_b', 600)));
    await same((s) => s.deleteSessionsOf('usr_b'));
    expect(await same((s) => s.getSession('ses_5'))).toBeUndefined();
    expect(await same((s) => s.getSession('ses_8'))).toBeUndefined();
    // Deleting a user ends its sessions.
    await same((s) => s.insertSession(session('ses_9', 'usr_a', 700)));
    await same((s) => s.deleteUser('usr_a'));
    expect(await same((s) => s.getSessionByHash(hash('ses_9')))).toBeUndefined();
  });

  it('counts failed sign-ins per e-mail whatever its case, the n-th newest after a moment, ties included', async () => {
    for (const at of [100, 200, 200, 300, 400]) await same((s) => s.recordSignInFailure('Ann@Example.com', at));
    await same((s) => s.recordSignInFailure('bob@example.com', 350));
    for (const since of [0, 100, 199, 200, 399, 400]) {
      for (const n of [1, 2, 3, 4, 5, 6]) await same((s) => s.nthSignInFailure(' ann@example.COM', since, n));
    }
    expect(await same((s) => s.nthSignInFailure('ann@example.com', 0, 3))).toBe(200);
    expect(await same((s) => s.nthSignInFailure('ann@example.com', 200, 3))).toBeUndefined();
    expect(await same((s) => s.nthSignInFailure('nobody@example.com', 0, 1))).toBeUndefined();
    expect(await same((s) => s.deleteSignInFailuresBefore(200))).toBe(3); // at <= 200
    expect(await same((s) => s.deleteSignInFailuresBefore(200))).toBe(0);
    await same((s) => s.nthSignInFailure('ann@example.com', 0, 2));
    await same((s) => s.clearSignInFailures('ANN@example.com'));
    expect(await same((s) => s.nthSignInFailure('ann@example.com', 0, 1))).toBeUndefined();
    expect(await same((s) => s.nthSignInFailure('bob@example.com', 0, 1))).toBe(350);
  });

  it('holds attempts sent at once to the allowance when each counts itself in a transaction (the write lock)', async () => {
    // services/sessions.ts countAttempt: read the n-th failure, refuse or record one, in one transaction.
    const allowed = 5;
    const attempt = (): Promise<boolean> =>
      e.pgDb.transaction(async () => {
        if ((await pg.nthSignInFailure('ann@example.com', 0, allowed)) !== undefined) return false;
        await pg.recordSignInFailure('ann@example.com', 1000);
        return true;
      });
    const results = await Promise.all(Array.from({ length: 20 }, attempt));
    expect(results.filter(Boolean)).toHaveLength(allowed);
    expect(await pg.nthSignInFailure('ann@example.com', 0, allowed)).toBe(1000);
    expect(await pg.nthSignInFailure('ann@example.com', 0, allowed + 1)).toBeUndefined();
  });
});
