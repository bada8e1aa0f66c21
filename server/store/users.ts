import type { Db } from './db.js';

export interface UserRow {
  id: string;
  orgId: string;
  email: string;
  name: string;
  role: 'owner' | 'staff';
  passwordHash: string | null;
  createdAt: number;
  lastSignInAt: number | null;
  disabledAt: number | null;
}

export interface SessionRow {
  id: string;
  tokenHash: Buffer;
  userId: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

export const USER_COLUMNS = `id, org_id AS orgId, email, name, role, password_hash AS passwordHash, created_at AS createdAt,
  last_sign_in_at AS lastSignInAt, disabled_at AS disabledAt`;
export const SESSION_COLUMNS = `id, token_hash AS tokenHash, user_id AS userId, csrf_token AS csrfToken, created_at AS createdAt,
  last_seen_at AS lastSeenAt`;

/** The form an e-mail address is unique and looked up in. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export function userStore(db: Db) {
  const insertUser = db.prepare(`INSERT INTO users
    (id, org_id, email, email_key, name, role, password_hash, created_at, last_sign_in_at, disabled_at)
    VALUES (@id, @orgId, @email, @emailKey, @name, @role, @passwordHash, @createdAt, @lastSignInAt, @disabledAt)`);
  const userById = db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`);
  const userByEmail = db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE email_key = ?`);
  const usersOfOrg = db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE org_id = ? ORDER BY created_at, id`);
  const activeOwners = db.prepare(
    `SELECT count(*) AS n FROM users WHERE org_id = ? AND role = 'owner' AND disabled_at IS NULL`,
  );
  const updateUser = db.prepare(`UPDATE users SET name = @name, role = @role, disabled_at = @disabledAt WHERE id = @id`);
  const setPassword = db.prepare('UPDATE users SET password_hash = ? WHERE id = ?');
  const signedIn = db.prepare('UPDATE users SET last_sign_in_at = ? WHERE id = ?');
  const deleteUser = db.prepare('DELETE FROM users WHERE id = ?');

  const insertToken = db.prepare('INSERT INTO user_setup_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)');
  const tokenByHash = db.prepare(
    'SELECT token_hash AS tokenHash, user_id AS userId, expires_at AS expiresAt FROM user_setup_tokens WHERE token_hash = ?',
  );
  const deleteToken = db.prepare('DELETE FROM user_setup_tokens WHERE token_hash = ?');
  const deleteTokensOf = db.prepare('DELETE FROM user_setup_tokens WHERE user_id = ?');
  const deleteExpiredTokens = db.prepare('DELETE FROM user_setup_tokens WHERE expires_at <= ?');

  const insertSession = db.prepare(`INSERT INTO sessions (id, token_hash, user_id, csrf_token, created_at, last_seen_at)
    VALUES (@id, @tokenHash, @userId, @csrfToken, @createdAt, @lastSeenAt)`);
  const sessionByHash = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE token_hash = ?`);
  const sessionById = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`);
  const touchSession = db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id = ?');
  const deleteSession = db.prepare('DELETE FROM sessions WHERE id = ?');
  const deleteSessionsOf = db.prepare('DELETE FROM sessions WHERE user_id = ?');
  const deleteStaleSessions = db.prepare('DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?');

  const insertFailure = db.prepare('INSERT INTO sign_in_failures (email_key, at) VALUES (?, ?)');
  const nthFailure = db.prepare(
    'SELECT at FROM sign_in_failures WHERE email_key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
  );
  const clearFailures = db.prepare('DELETE FROM sign_in_failures WHERE email_key = ?');
  const deleteOldFailures = db.prepare('DELETE FROM sign_in_failures WHERE at <= ?');

  return {
    insertUser(row: UserRow): void {
      insertUser.run({ ...row, emailKey: emailKey(row.email) });
    },
    getUser(id: string): UserRow | undefined {
      return userById.get(id) as UserRow | undefined;
    },
    getUserByEmail(email: string): UserRow | undefined {
      return userByEmail.get(emailKey(email)) as UserRow | undefined;
    },
    listUsers(orgId: string): UserRow[] {
      return usersOfOrg.all(orgId) as UserRow[];
    },
    countActiveOwners(orgId: string): number {
      return (activeOwners.get(orgId) as { n: number }).n;
    },
    updateUser(row: Pick<UserRow, 'id' | 'name' | 'role' | 'disabledAt'>): void {
      updateUser.run({ id: row.id, name: row.name, role: row.role, disabledAt: row.disabledAt });
    },
    setUserPassword(id: string, passwordHash: string | null): void {
      setPassword.run(passwordHash, id);
    },
    recordSignIn(id: string, at: number): void {
      signedIn.run(at, id);
    },
    deleteUser(id: string): void {
      deleteUser.run(id);
    },

    insertSetupToken(tokenHash: Buffer, userId: string, expiresAt: number): void {
      insertToken.run(tokenHash, userId, expiresAt);
    },
    getSetupToken(tokenHash: Buffer): { tokenHash: Buffer; userId: string; expiresAt: number } | undefined {
      return tokenByHash.get(tokenHash) as { tokenHash: Buffer; userId: string; expiresAt: number } | undefined;
    },
    deleteSetupToken(tokenHash: Buffer): number {
      return deleteToken.run(tokenHash).changes;
    },
    deleteSetupTokensOf(userId: string): void {
      deleteTokensOf.run(userId);
    },
    deleteExpiredSetupTokens(now: number): number {
      return deleteExpiredTokens.run(now).changes;
    },

    insertSession(row: SessionRow): void {
      insertSession.run(row);
    },
    getSessionByHash(tokenHash: Buffer): SessionRow | undefined {
      return sessionByHash.get(tokenHash) as SessionRow | undefined;
    },
    getSession(id: string): SessionRow | undefined {
      return sessionById.get(id) as SessionRow | undefined;
    },
    touchSession(id: string, at: number): void {
      touchSession.run(at, id);
    },
    deleteSession(id: string): void {
      deleteSession.run(id);
    },
    deleteSessionsOf(userId: string): void {
      deleteSessionsOf.run(userId);
    },
    /** Sessions unused since `idleBefore` or begun before `startedBefore`. */
    deleteStaleSessions(idleBefore: number, startedBefore: number): number {
      return deleteStaleSessions.run(idleBefore, startedBefore).changes;
    },

    /**
     * Counted sign-in attempts, under an e-mail or (services/sessions.ts) a client address's key,
     * which holds no `@`: the two never share a count.
     */
    recordSignInFailure(email: string, at: number): void {
      insertFailure.run(emailKey(email), at);
    },
    /** The time of the `n`-th newest failure for this e-mail after `since` (n from 1), if there are that many. */
    nthSignInFailure(email: string, since: number, n: number): number | undefined {
      return (nthFailure.get(emailKey(email), since, n - 1) as { at: number } | undefined)?.at;
    },
    clearSignInFailures(email: string): void {
      clearFailures.run(emailKey(email));
    },
    deleteSignInFailuresBefore(before: number): number {
      return deleteOldFailures.run(before).changes;
    },
  };
}
